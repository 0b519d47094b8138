// Applied resources written as rows through /api/db with a real PostgREST client (@supabase/postgrest-js),
// as the original console and scripts do: a canary row gets its checks and runs within a poll against
// a loopback server, its spec edits and soft delete are honoured; topologies build their components;
// scrape configs scrape; a bad spec is refused with the apply endpoint's own message; playbooks (applied
// only through /api/playbook) are refused with 405.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.js';

const canary = (name: string, url: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Canary',
  metadata: { name, namespace: 'dbw' },
  spec: { interval: 5, http: [{ name: 'home', url, ...extra }] },
});

/** The apply endpoint's message without its positions (a row's spec has no lines and columns). */
const plain = (m: string) => m.replace(/ \(line \d+, column \d+\)/g, '');

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(databaseKinds())('resources written through /api/db on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let target: HttpReceiver;
  let db: PostgrestClient;
  let dir: string;
  const apply = (p: string, body: unknown) =>
    fetch(`${app.url}${p}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { ...admin.headers, 'content-type': 'application/json' },
    });

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: true });
    admin = await createTestUser(test.db, 'admin');
    target = await startHttpReceiver();
    db = new PostgrestClient(`${app.url}/api/db`, { headers: admin.headers as Record<string, string> });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-resources-'));
  });
  afterAll(async () => {
    await app?.close();
    await target?.close();
    await test?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const checksOf = async (canaryId: string) => {
    const { data, error } = await db
      .from('checks')
      .select('id,name,spec,status,deleted_at')
      .eq('canary_id', canaryId)
      .is('deleted_at', null);
    expect(error).toBeNull();
    return data as { id: string; name: string; spec: { url: string }; status: string | null }[];
  };

  it('runs a canary inserted as a row, applies its edits and stops it when soft-deleted', async () => {
    target.reply({ status: 200, body: { ok: true } });
    const inserted = await db
      .from('canaries')
      .insert({ spec: canary('rowed', `${target.url}/one`) })
      .select('id,name,namespace,schedule')
      .single();
    expect(inserted.error).toBeNull();
    const row = inserted.data as { id: string; name: string; namespace: string; schedule: string };
    // Names and schedule come from the spec, as the apply endpoint stores them.
    expect(row).toMatchObject({ name: 'rowed', namespace: 'dbw' });
    expect(row.schedule).toBeTruthy();
    const [check] = await checksOf(row.id);
    expect(check).toMatchObject({ name: 'home' });
    // It runs within a poll: a status against the loopback server.
    await until('a status', async () => {
      const { data } = await db.from('check_statuses').select('status').eq('check_id', check!.id);
      return (data as unknown[]).length > 0;
    });
    expect(target.requests.some((r) => r.path === '/one')).toBe(true);

    // A spec edit: the check follows it and the next runs go to the new address.
    const patched = await db
      .from('canaries')
      .update({ spec: canary('rowed', `${target.url}/two`) })
      .eq('id', row.id);
    expect(patched.error).toBeNull();
    const [edited] = await checksOf(row.id);
    expect(edited!.id).toBe(check!.id);
    expect(edited!.spec.url).toBe(`${target.url}/two`);
    await until('a run of the edited check', async () => target.requests.some((r) => r.path === '/two'));

    // A soft delete: the canary and its checks go, and it stops running.
    const deleted = await db.from('canaries').update({ deleted_at: new Date().toISOString() }).eq('id', row.id);
    expect(deleted.error).toBeNull();
    expect(await checksOf(row.id)).toEqual([]);
    await new Promise((r) => setTimeout(r, 1_500));
    const seen = target.requests.length;
    await new Promise((r) => setTimeout(r, 6_000));
    expect(target.requests.length).toBe(seen);
  });

  it('refuses a bad canary spec with the apply endpoint message', async () => {
    const bad = canary('broken', `${target.url}/x`);
    (bad.spec as Record<string, unknown>).pigeon = [{ name: 'coo' }];
    const res = await apply('/api/canary', bad);
    expect(res.status).toBe(400);
    const expected = plain(((await res.json()) as { message: string }).message);
    expect(expected).toMatch(/check type "pigeon" is not supported/);
    const { error, status } = await db.from('canaries').insert({ spec: bad });
    expect(status).toBe(400);
    expect(error?.message).toBe(expected);
    // A row whose name is not the spec's, or without a spec, is refused too.
    const named = await db.from('canaries').insert({ name: 'x', spec: undefined });
    expect(named.status).toBe(400);
    const none = await db.from('canaries').select('id').eq('name', 'broken');
    expect(none.data).toEqual([]);
    // An edit with a bad spec leaves the canary as it was.
    const ok = await db
      .from('canaries')
      .insert({ spec: canary('kept', `${target.url}/kept`) })
      .select('id')
      .single();
    const edit = await db
      .from('canaries')
      .update({ spec: bad })
      .eq('id', (ok.data as { id: string }).id);
    expect(edit.status).toBe(400);
    expect(edit.error?.message).toBe(expected);
    const [kept] = await checksOf((ok.data as { id: string }).id);
    expect(kept!.spec.url).toBe(`${target.url}/kept`);
  });

  it('builds a topology inserted as a row and removes its components when soft-deleted', async () => {
    const topology = {
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Topology',
      metadata: { name: 'rowed-shop', namespace: 'dbw' },
      spec: { type: 'App', components: [{ name: 'frontend', type: 'Service' }] },
    };
    const inserted = await db.from('topologies').insert({ spec: topology }).select('id,name').single();
    expect(inserted.error).toBeNull();
    const id = (inserted.data as { id: string }).id;
    const live = async () => {
      const { data } = await db.from('components').select('name').eq('topology_id', id).is('deleted_at', null);
      return data as { name: string }[];
    };
    await until('the components', async () => (await live()).some((c) => c.name === 'frontend'));
    const bad = { ...topology, spec: { ...topology.spec, components: 'many' } };
    const res = await apply('/api/topology', bad);
    expect(res.status).toBe(400);
    const expected = plain(((await res.json()) as { message: string }).message);
    const refused = await db.from('topologies').update({ spec: bad }).eq('id', id);
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toBe(expected);
    await db.from('topologies').update({ deleted_at: new Date().toISOString() }).eq('id', id);
    expect(await live()).toEqual([]);
  });

  it('scrapes a scrape config inserted as a row; a bad one is refused like the apply endpoint', async () => {
    fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ id: 'a1', name: 'alpha' }));
    const config = {
      apiVersion: 'configs.flanksource.com/v1',
      kind: 'ScrapeConfig',
      metadata: { name: 'rowed-files', namespace: 'dbw' },
      spec: { file: [{ type: 'Demo::Thing', id: '$.id', name: '$.name', paths: [`${dir}/*.json`] }] },
    };
    const inserted = await db.from('config_scrapers').insert({ spec: config }).select('id,name').single();
    expect(inserted.error).toBeNull();
    expect(inserted.data).toMatchObject({ name: 'rowed-files' });
    const id = (inserted.data as { id: string }).id;
    await until('the scraped item', async () => {
      const { data } = await db.from('config_items').select('name').eq('scraper_id', id);
      return (data as { name: string }[]).some((i) => i.name === 'alpha');
    });
    const bad = { ...config, spec: { file: [{ type: 'Demo::Thing' }] } };
    const res = await apply('/api/catalog', bad);
    expect(res.status).toBe(400);
    const expected = plain(((await res.json()) as { message: string }).message);
    const refused = await db.from('config_scrapers').insert({ spec: bad });
    expect(refused.status).toBe(400);
    expect(refused.error?.message).toBe(expected);
    const gone = await db.from('config_scrapers').update({ deleted_at: new Date().toISOString() }).eq('id', id);
    expect(gone.error).toBeNull();
  });

  it('refuses playbook rows with 405 naming the endpoint', async () => {
    const { status, error } = await db.from('playbooks').insert({ name: 'p', spec: {} });
    expect(status).toBe(405);
    expect(error?.message).toMatch(/\/api\/playbook/);
  });
});
