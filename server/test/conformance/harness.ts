// The differential conformance harness: two copies of one fixture database, the real PostgREST
// on one and Opsdeck's /api/db on the other, the corpus sent to both, answers compared.
import { hashToken } from '../../src/auth/tokens.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import pg from 'pg';
import YAML from 'yaml';
import { openPostgres } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import {
  buildRegistry,
  type ExposedFunction,
  type ExposedRelation,
  type ExposureRegistry,
} from '../../src/rest/registry.js';
import { grantAnonymousRole, startPostgrest, type RunningPostgrest } from './postgrest.js';

const here = import.meta.dirname;
export const CORPUS_FILE = path.join(here, 'corpus.yaml');
export const FIXTURE_FILE = path.join(here, 'fixture.sql');

// ---------------------------------------------------------------------------------------------
// The corpus

export type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';

export interface CorpusEntry {
  name: string;
  method: Method;
  /** Path and query relative to the REST root, e.g. "/people?select=id,name". */
  path: string;
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as-is (malformed bodies). */
  rawBody?: string;
  /** Object keys removed (at any depth) from both bodies before comparing. */
  ignoreFields: string[];
  /**
   * A deliberate difference from PostgREST: Opsdeck must answer this status (and error code)
   * instead, for the reason given. Reported separately, never silently counted as a match.
   */
  deviation?: { reason: string; status: number; code?: string };
}

const METHODS: readonly Method[] = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'];

export function loadCorpus(file = CORPUS_FILE): CorpusEntry[] {
  const raw: unknown = YAML.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a list of requests`);
  const seen = new Set<string>();
  return raw.map((item: unknown, i) => {
    const where = `${file}: entry ${i + 1}`;
    if (typeof item !== 'object' || item === null) throw new Error(`${where}: expected a mapping`);
    const e = item as Record<string, unknown>;
    const known = new Set(['name', 'method', 'path', 'headers', 'body', 'rawBody', 'ignoreFields', 'deviation']);
    for (const key of Object.keys(e)) if (!known.has(key)) throw new Error(`${where}: unknown field "${key}"`);
    if (typeof e.name !== 'string' || !e.name) throw new Error(`${where}: name is required`);
    if (seen.has(e.name)) throw new Error(`${where}: duplicate name "${e.name}"`);
    seen.add(e.name);
    const method = (e.method ?? 'GET') as Method;
    if (!METHODS.includes(method)) throw new Error(`${where} (${e.name}): unsupported method ${String(e.method)}`);
    if (typeof e.path !== 'string' || !e.path.startsWith('/'))
      throw new Error(`${where} (${e.name}): path must start with /`);
    if ('body' in e && 'rawBody' in e) throw new Error(`${where} (${e.name}): body and rawBody are exclusive`);
    if ('rawBody' in e && typeof e.rawBody !== 'string')
      throw new Error(`${where} (${e.name}): rawBody must be a string`);
    const headers: Record<string, string> = {};
    if (e.headers !== undefined) {
      if (typeof e.headers !== 'object' || e.headers === null)
        throw new Error(`${where} (${e.name}): headers must be a mapping`);
      for (const [k, v] of Object.entries(e.headers)) headers[k] = String(v);
    }
    const ignoreFields = (e.ignoreFields ?? []) as string[];
    if (!Array.isArray(ignoreFields) || ignoreFields.some((f) => typeof f !== 'string')) {
      throw new Error(`${where} (${e.name}): ignoreFields must be a list of strings`);
    }
    const deviation = e.deviation as CorpusEntry['deviation'];
    if (deviation !== undefined && (typeof deviation.reason !== 'string' || typeof deviation.status !== 'number')) {
      throw new Error(`${where} (${e.name}): deviation needs a reason and a status`);
    }
    return {
      name: e.name,
      method,
      path: e.path,
      headers,
      ...(deviation ? { deviation } : {}),
      ...('body' in e ? { body: e.body } : {}),
      ...('rawBody' in e ? { rawBody: e.rawBody as string } : {}),
      ignoreFields,
    };
  });
}

/** CONFORMANCE_ONLY="a,b" keeps the entries whose name contains any of the (case-insensitive) parts. */
export function filterCorpus(entries: CorpusEntry[], only = process.env.CONFORMANCE_ONLY): CorpusEntry[] {
  if (!only) return entries;
  const parts = only
    .toLowerCase()
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return entries.filter((e) => parts.some((p) => e.name.toLowerCase().includes(p)));
}

// ---------------------------------------------------------------------------------------------
// Databases and servers

/** Test-only objects from fixture.sql, exposed to both servers on top of the built-in registry. */
export const extraRelations: ExposedRelation[] = [
  { name: 'test_items', resource: 'database' },
  { name: 'person_profiles', resource: 'database' },
];
export const extraFunctions: ExposedFunction[] = [
  { name: 'people_named', resource: 'database' },
  { name: 'add_numbers', resource: 'database' },
  { name: 'greet', resource: 'database' },
  { name: 'team_sizes', resource: 'database' },
];

export function conformanceRegistry(): ExposureRegistry {
  return buildRegistry(extraRelations, extraFunctions);
}

export interface FixtureDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a database on adminUrl's server, applies the Opsdeck migrations and fixture.sql, and
 * grants the PostgREST anonymous role exactly what the registry exposes.
 */
const CONFORMANCE_ADMIN_ID = '99999999-0000-0000-0000-000000000001';
const CONFORMANCE_TOKEN = 'odk_conformance-test-token';

export async function createFixtureDatabase(
  adminUrl: string,
  name: string,
  registry: ExposureRegistry,
): Promise<FixtureDatabase> {
  await withAdmin(adminUrl, async (c) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await c.query(`CREATE DATABASE ${name}`);
        return;
      } catch (e) {
        // 55006: template1 is busy because another process creates a database right now.
        if ((e as { code?: string }).code !== '55006' || attempt >= 10) throw e;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async (): Promise<void> => {
    await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
  try {
    const db = await openPostgres(url.toString(), 2);
    try {
      await migrate(db);
      await db.exec(fs.readFileSync(FIXTURE_FILE, 'utf8'));
      // The same administrator and token in both copies, so Opsdeck's requests are authorised and the
      // data both servers see stays identical.
      await db.query(
        `INSERT INTO people (id, name, email, created_at, updated_at) VALUES ($1, 'Conformance Admin', 'conformance@example.test', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')`,
        [CONFORMANCE_ADMIN_ID],
      );
      await db.query(`INSERT INTO person_roles (person_id, role) VALUES ($1, 'admin')`, [CONFORMANCE_ADMIN_ID]);
      await db.query(
        `INSERT INTO access_tokens (id, name, value, person_id, created_at) VALUES ($1, 'conformance', $2, $3, '2024-01-01T00:00:00Z')`,
        [CONFORMANCE_ADMIN_ID, hashToken(CONFORMANCE_TOKEN), CONFORMANCE_ADMIN_ID],
      );
      await grantAnonymousRole(db, {
        relations: [...registry.relations.keys()],
        functions: [...registry.functions.keys()],
      });
    } finally {
      await db.close();
    }
  } catch (e) {
    await drop().catch(() => undefined);
    throw e;
  }
  return { name, url: url.toString(), drop };
}

export interface Target {
  label: string;
  /** Prefix every corpus path is appended to. */
  baseUrl: string;
  /** Extra headers on every request (e.g. Opsdeck credentials). */
  headers?: Record<string, string>;
}

export interface ConformanceEnvironment {
  postgrest: RunningPostgrest;
  postgrestTarget: Target;
  /** Undefined in PostgREST-only mode. */
  opsdeckTarget?: Target;
  close(): Promise<void>;
}

/**
 * Two fixture databases (A for PostgREST, B for Opsdeck) and both servers. With
 * postgrestOnly, Opsdeck is not started (for looking at PostgREST's answers alone).
 */
export async function startEnvironment(
  adminUrl: string,
  options: { postgrestOnly?: boolean } = {},
): Promise<ConformanceEnvironment> {
  const registry = conformanceRegistry();
  const prefix = `opsdeck_conf_${crypto.randomBytes(4).toString('hex')}`;
  const cleanups: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((e: unknown) => console.error('conformance cleanup:', e));
  };
  try {
    const [dbA, dbB] = await Promise.all([
      createFixtureDatabase(adminUrl, `${prefix}_a`, registry),
      options.postgrestOnly ? undefined : createFixtureDatabase(adminUrl, `${prefix}_b`, registry),
    ]);
    cleanups.push(dbA.drop);
    if (dbB) cleanups.push(dbB.drop);

    const postgrest = await startPostgrest(dbA.url);
    cleanups.push(postgrest.stop);
    const postgrestTarget: Target = { label: 'PostgREST', baseUrl: postgrest.url };

    let opsdeckTarget: Target | undefined;
    if (dbB) {
      // Imported lazily so PostgREST-only runs work while the REST layer is incomplete.
      const { startOpsdeck } = await import('../../src/app.js');
      // No engines: the event router would consume the fixture's event_queue rows (PostgREST's twin keeps them).
      const opsdeck = await startOpsdeck({
        databaseUrl: dbB.url,
        port: 0,
        host: '127.0.0.1',
        demo: false,
        engines: false,
        registry,
      });
      cleanups.push(() => opsdeck.close());
      opsdeckTarget = {
        label: 'Opsdeck',
        baseUrl: `${opsdeck.url}/api/db`,
        headers: { Authorization: `Bearer ${CONFORMANCE_TOKEN}` },
      };
    }
    return { postgrest, postgrestTarget, opsdeckTarget, close };
  } catch (e) {
    await close();
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests and comparison

export interface Answer {
  status: number;
  contentRange: string | null;
  text: string;
  /** Parsed JSON; undefined for an empty body; the raw text when the body is not JSON. */
  body: unknown;
  json: boolean;
}

export async function send(target: Target, entry: CorpusEntry): Promise<Answer> {
  const headers: Record<string, string> = { ...target.headers, ...entry.headers };
  let body: string | undefined;
  if (entry.rawBody !== undefined) body = entry.rawBody;
  else if (entry.body !== undefined) body = JSON.stringify(entry.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(target.baseUrl + entry.path, {
    method: entry.method,
    headers,
    body,
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  let parsed: unknown;
  let json = false;
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
      json = true;
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, contentRange: res.headers.get('content-range'), text, body: parsed, json };
}

function withoutFields(value: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0) return value;
  if (Array.isArray(value)) return value.map((v) => withoutFields(v, fields));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !fields.includes(k))
        .map(([k, v]) => [k, withoutFields(v, fields)]),
    );
  }
  return value;
}

export type Aspect = 'status' | 'body' | 'content-range';

export function differences(expected: Answer, actual: Answer, ignoreFields: readonly string[] = []): Aspect[] {
  const out: Aspect[] = [];
  if (expected.status !== actual.status) out.push('status');
  if (!isDeepStrictEqual(withoutFields(expected.body, ignoreFields), withoutFields(actual.body, ignoreFields)))
    out.push('body');
  if (expected.contentRange !== actual.contentRange) out.push('content-range');
  return out;
}

export interface Outcome {
  entry: CorpusEntry;
  expected: Answer;
  actual?: Answer;
  /** Why Opsdeck gave no answer at all (connection error, timeout). */
  error?: string;
  differences: Aspect[];
}

/** A declared deviation holds when Opsdeck answers its status and, if given, its error code. */
function deviationDifferences(deviation: NonNullable<CorpusEntry['deviation']>, actual: Answer): Aspect[] {
  const code = (actual.body as { code?: unknown } | null)?.code;
  const out: Aspect[] = [];
  if (actual.status !== deviation.status) out.push('status');
  if (deviation.code !== undefined && code !== deviation.code) out.push('body');
  return out;
}

/** Sends every entry, in order, to PostgREST and then to Opsdeck. */
export async function runCorpus(env: ConformanceEnvironment, entries: CorpusEntry[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const entry of entries) {
    const expected = await send(env.postgrestTarget, entry);
    if (!env.opsdeckTarget) {
      outcomes.push({ entry, expected, differences: [] });
      continue;
    }
    try {
      const actual = await send(env.opsdeckTarget, entry);
      const diff = entry.deviation
        ? deviationDifferences(entry.deviation, actual)
        : differences(expected, actual, entry.ignoreFields);
      outcomes.push({ entry, expected, actual, differences: diff });
    } catch (e) {
      outcomes.push({ entry, expected, error: (e as Error).message, differences: ['status', 'body', 'content-range'] });
    }
  }
  return outcomes;
}

// ---------------------------------------------------------------------------------------------
// Reporting

function truncate(s: string, max: number): string {
  const flat = s.replace(/\s*\n\s*/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}… (${flat.length} chars)` : flat;
}

function describe(answer: Answer, max: number): string {
  const range = answer.contentRange === null ? '' : ` Content-Range: ${answer.contentRange}`;
  const body =
    answer.text === '' ? '(empty body)' : truncate(answer.json ? JSON.stringify(answer.body) : answer.text, max);
  return `${answer.status}${range} ${body}`;
}

function requestLine(entry: CorpusEntry): string {
  const headers = Object.entries(entry.headers).map(([k, v]) => `${k}: ${v}`);
  const body = entry.rawBody ?? (entry.body === undefined ? undefined : JSON.stringify(entry.body));
  return [
    `${entry.method} ${entry.path}`,
    ...headers.map((h) => `[${h}]`),
    ...(body === undefined ? [] : [truncate(body, 160)]),
  ].join(' ');
}

export function summaryLine(outcomes: Outcome[], version: string): string {
  const ok = outcomes.filter((o) => o.differences.length === 0);
  const deviations = ok.filter((o) => o.entry.deviation).length;
  const matched = ok.length - deviations;
  return (
    `conformance: ${matched}/${outcomes.length} requests match ${version}` +
    (deviations ? `, ${deviations} deliberate deviation(s) hold` : '')
  );
}

export function formatReport(outcomes: Outcome[], version: string, maxBody = 400): string {
  const lines: string[] = [summaryLine(outcomes, version)];
  const deviations = outcomes.filter((o) => o.entry.deviation && o.differences.length === 0);
  if (deviations.length > 0) lines.push('', `deliberate deviations (${deviations.length}):`);
  for (const o of deviations) {
    lines.push(`≠ ${o.entry.name}: ${o.entry.deviation!.reason}`);
    lines.push(`    PostgREST: ${describe(o.expected, maxBody)}`);
    lines.push(`    Opsdeck:   ${describe(o.actual!, maxBody)}`);
  }
  const mismatches = outcomes.filter((o) => o.differences.length > 0);
  if (mismatches.length > 0) lines.push('', `mismatches (${mismatches.length}):`);
  for (const o of mismatches) {
    lines.push(`✗ ${o.entry.name}  [${o.differences.join(', ')}]`);
    lines.push(`    ${requestLine(o.entry)}`);
    lines.push(`    PostgREST: ${describe(o.expected, maxBody)}`);
    lines.push(`    Opsdeck:   ${o.actual ? describe(o.actual, maxBody) : `no answer: ${o.error}`}`);
  }
  return lines.join('\n');
}

/** PostgREST-only listing: what the oracle answers to each entry. */
export function formatOracleAnswers(outcomes: Outcome[], maxBody = 600): string {
  return outcomes
    .map((o) =>
      [`• ${o.entry.name}`, `    ${requestLine(o.entry)}`, `    → ${describe(o.expected, maxBody)}`].join('\n'),
    )
    .join('\n');
}
