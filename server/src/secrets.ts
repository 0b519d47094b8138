// Secrets at rest: connection passwords and certificates (the registry's secret columns) are
// sealed with AES-256-GCM before they reach the database, and opened only where a checker,
// scraper or sender needs them. The read APIs never return them at all.
//
// The key is OPSDECK_ENCRYPTION_KEY when set (any string; SHA-256 makes the AES key), otherwise a
// random key generated once and kept in server_settings (so every replica shares it). A sealed
// value names its key (the first bytes of the key's hash), so a process that opened databases with
// different keys (tests) opens each value with the right one.
import crypto from 'node:crypto';
import { isSecretRef } from '@opsdeck/common';

const PREFIX = 'enc:v1:';
const keys = new Map<string, Buffer>();

function keyIdOf(key: Buffer): string {
  return crypto.createHash('sha256').update(key).digest('hex').slice(0, 12);
}

export class SecretBox {
  readonly keyId: string;
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = crypto.createHash('sha256').update(`opsdeck secrets\n${secret}`).digest();
    this.keyId = keyIdOf(this.key);
    keys.set(this.keyId, this.key);
  }

  /** A sealed value is left as it is, so sealing twice (an update echoing a value) changes nothing. */
  seal(plain: string): string {
    if (isSealed(plain)) return plain;
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.keyId}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/**
 * The plain value of a stored secret. Values written before sealing existed pass through; a value
 * sealed with a key this process does not know (OPSDECK_ENCRYPTION_KEY changed) is an error that
 * says so, never garbage.
 */
export function openSecret(stored: string): string;
export function openSecret(stored: string | null): string | null;
export function openSecret(stored: string | null): string | null {
  if (stored === null || !isSealed(stored)) return stored;
  const rest = stored.slice(PREFIX.length);
  const colon = rest.indexOf(':');
  const key = keys.get(rest.slice(0, colon));
  if (!key) {
    throw new Error(
      'a stored secret was sealed with another encryption key: set OPSDECK_ENCRYPTION_KEY to the key it was written with, or enter the secret again',
    );
  }
  const raw = Buffer.from(rest.slice(colon + 1), 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/**
 * Seals the given columns of a JSON write body (an object or an array of objects); anything else
 * (invalid JSON, other shapes) is returned unchanged for the REST layer to refuse as usual. A
 * reference (`secret://name/key`, `configmap://name/key`) is an address, not a secret: it is stored
 * as written so the console can show it (connections.password_ref).
 */
export function sealBody(body: string, columns: readonly string[], box: SecretBox): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  const rows = Array.isArray(parsed) ? parsed : [parsed];
  let changed = false;
  for (const row of rows) {
    if (!row || typeof row !== 'object' || Array.isArray(row)) continue;
    const r = row as Record<string, unknown>;
    for (const col of columns) {
      const v = r[col];
      if (typeof v === 'string' && v !== '' && !isSealed(v) && !isSecretRef(v)) {
        r[col] = box.seal(v);
        changed = true;
      }
    }
  }
  return changed ? JSON.stringify(parsed) : body;
}
