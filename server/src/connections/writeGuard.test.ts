// The /api/db/connections write guard: rows normalised to the stored shape, validation of creates and
// patches (the stored type looked up by the filter), and one wrong row refusing the whole write.
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/database.js';
import { ApiError } from '../rest/errors.js';
import { connectionWriteGuard, normaliseConnection } from './writeGuard.js';

/** A database holding these stored rows; records the parameters it was asked with. */
function fakeDb(rows: Record<string, unknown>[]) {
  const asked: unknown[][] = [];
  const db: Queryable = {
    query: async <T>(_sql: string, params: unknown[] = []) => {
      asked.push(params);
      return { rows: rows as T[] } as Awaited<ReturnType<Queryable['query']>> & { rows: T[] };
    },
  };
  return { db, asked };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('normaliseConnection', () => {
  it('spells the type canonically, flattens EnvValues and keeps properties as text', () => {
    expect(
      normaliseConnection({
        type: 'PostgreSQL',
        password: { valueFrom: { secretKeyRef: { name: 'db', key: 'pw' } } },
        certificate: { valueFrom: { configMapKeyRef: { name: 'ca', key: 'crt' } } },
        username: { value: 'app' },
        properties: { port: 5432, tls: true, note: 'x' },
      }),
    ).toEqual({
      type: 'postgres',
      password: 'secret://db/pw',
      certificate: 'configmap://ca/crt',
      username: 'app',
      properties: { port: '5432', tls: 'true', note: 'x' },
    });
  });
});

describe('connectionWriteGuard', () => {
  it('fills defaults on create and refuses the whole array for one wrong row', async () => {
    const { db } = fakeDb([]);
    const [row] = await connectionWriteGuard({
      method: 'POST',
      rows: [{ name: 'sftp', type: 'sftp', username: 'u', properties: { host: 'files' } }],
      query: [],
      db,
    });
    expect(row).toMatchObject({ namespace: 'default', properties: { host: 'files', port: '22', path: '/' } });
    const e = await refusal(
      connectionWriteGuard({
        method: 'POST',
        rows: [
          { name: 'a', type: 'http', url: 'http://a' },
          { name: 'b', type: 'http', url: 'b' },
        ],
        query: [],
        db,
      }),
    );
    expect(e.status).toBe(400);
    expect(e.code).toBe('INVALID_CONNECTION');
    expect(e.details).toEqual([
      { row: 1, field: 'url', message: 'URL must be a URL such as https://host:port (got "b")' },
    ]);
  });

  it('keeps the stored secrets a PUT leaves out', async () => {
    const { db } = fakeDb([{ id: 'i1', type: 'postgres', password: 'enc:v1:x', certificate: null }]);
    const [row] = await connectionWriteGuard({
      method: 'PUT',
      rows: [{ id: 'i1', name: 'db', type: 'postgres', url: 'postgres://db/x', username: 'u' }],
      query: [['id', 'eq.i1']],
      db,
    });
    expect(row).toMatchObject({ password: 'enc:v1:x', certificate: null });
  });

  it('checks a patch against the stored type named by the filter', async () => {
    const { db, asked } = fakeDb([{ id: 'i1', type: 'sftp', password: null, certificate: null }]);
    const e = await refusal(
      connectionWriteGuard({ method: 'PATCH', rows: [{ properties: { port: '2222' } }], query: [['id', 'eq.i1']], db }),
    );
    expect(asked).toEqual([[['i1']]]);
    expect(e.details).toEqual([{ field: 'properties.host', message: 'Host is required' }]);
    const [patched] = await connectionWriteGuard({
      method: 'PATCH',
      rows: [{ properties: { host: 'files' } }],
      query: [['id', 'eq.i1']],
      db,
    });
    expect(patched).toEqual({ properties: { host: 'files', port: '22', path: '/' } });
    const ok = await connectionWriteGuard({
      method: 'PATCH',
      rows: [{ deleted_at: '2026-01-01T00:00:00Z' }],
      query: [['created_at', 'lt.now']],
      db,
    });
    expect(ok).toEqual([{ deleted_at: '2026-01-01T00:00:00Z' }]);
    const blind = await refusal(
      connectionWriteGuard({ method: 'PATCH', rows: [{ url: 'http://x' }], query: [['created_at', 'lt.now']], db }),
    );
    expect(blind.message).toMatch(/needs its type: filter by id=eq/);
  });
});
