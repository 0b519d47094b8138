// Parameters of type `secret` and `connection`. A secret value is sealed (SecretBox) into
// playbook_runs.secret_parameters while `parameters` holds only a mask, so no read of a run (the API,
// /api/db, the runs list) can show it; the runner opens it for templates (`{{.params.token}}`) and
// masks it in whatever an action writes back (results, errors). A connection value names a stored
// connection (`connection://<type>/<name>` or its name), checked to exist when the run is requested.
import type { Queryable } from '../db/database.js';
import { openSecret, type SecretBox } from '../secrets.js';
import { ParameterError, type PlaybookParameter } from './parameters.js';

export const SECRET_MASK = '••••';
/** Shorter secrets are not masked in outputs: masking "a" would mangle every word. */
const MIN_MASKED_LENGTH = 3;

export interface SealedParams {
  /** What the run row shows: secrets as the mask ('' when none was given). */
  params: Record<string, string>;
  /** name → sealed value; null when the playbook has no secret given. */
  sealed: Record<string, string> | null;
}

/** Seals the secret parameters of a run request; `params` keeps only the mask. */
export function sealSecretParams(
  defs: readonly PlaybookParameter[],
  params: Record<string, string>,
  box: SecretBox,
): SealedParams {
  const out = { ...params };
  const sealed: Record<string, string> = {};
  for (const p of defs) {
    if (p.type !== 'secret') continue;
    const value = params[p.name] ?? '';
    if (value !== '') sealed[p.name] = box.seal(value);
    out[p.name] = value !== '' ? SECRET_MASK : '';
  }
  return { params: out, sealed: Object.keys(sealed).length ? sealed : null };
}

/**
 * A re-run's form shows secrets masked: a secret given as the mask takes the value of the run it
 * repeats (`parentSealed`), opened here so it is checked like any value; without one it is refused.
 */
export function unmaskSecretParams(
  defs: readonly PlaybookParameter[],
  given: Record<string, unknown>,
  parentSealed: Record<string, string> | null,
): Record<string, unknown> {
  const out = { ...given };
  for (const p of defs) {
    if (p.type !== 'secret' || given[p.name] !== SECRET_MASK) continue;
    const sealed = parentSealed?.[p.name];
    if (!sealed)
      throw new ParameterError(
        p.name,
        `parameter "${p.name}": give the secret again (a masked value is only taken from the run it re-runs)`,
      );
    out[p.name] = openSecret(sealed);
  }
  return out;
}

/** The parameters templates see: the sealed secrets opened in place of their masks. */
export function openSecretParams(
  params: Record<string, string>,
  sealed: Record<string, string> | null | undefined,
): Record<string, string> {
  const out = { ...params };
  for (const [name, value] of Object.entries(sealed ?? {})) out[name] = openSecret(value);
  return out;
}

/** The plain secret values of a run, longest first (for masking). */
export function secretValues(sealed: Record<string, string> | null | undefined): string[] {
  return Object.values(sealed ?? {})
    .map((v) => openSecret(v))
    .filter((v) => v.length >= MIN_MASKED_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/** `value` with every secret replaced by the mask, in every string it holds. */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  if (!secrets.length) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return secrets.reduce((text, s) => text.replaceAll(s, SECRET_MASK), v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

const CONNECTION_REF = /^connection:\/\/(?:([^/]+)\/)?(.+)$/;

/**
 * Connection parameters of a run request checked against the stored connections; each value becomes
 * `connection://<type>/<name>`. ParameterError (400) for one that does not exist.
 */
export async function checkConnectionParams(
  db: Queryable,
  defs: readonly PlaybookParameter[],
  params: Record<string, string>,
): Promise<Record<string, string>> {
  const out = { ...params };
  for (const p of defs) {
    const value = params[p.name];
    if (p.type !== 'connection' || !value) continue;
    const m = CONNECTION_REF.exec(value);
    const type = m?.[1] ?? null;
    const name = m?.[2] ?? value;
    const { rows } = await db.query<{ name: string; type: string }>(
      `SELECT name, type FROM connections WHERE name = $1 AND ($2::text IS NULL OR lower(type) = lower($2))
         AND deleted_at IS NULL ORDER BY created_at LIMIT 1`,
      [name, type],
    );
    const found = rows[0];
    if (!found)
      throw new ParameterError(p.name, `parameter "${p.name}": there is no connection ${JSON.stringify(value)}`);
    out[p.name] = `connection://${found.type}/${found.name}`;
  }
  return out;
}
