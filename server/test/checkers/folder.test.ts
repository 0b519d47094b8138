// The folder checker on a real temporary folder the test fills and ages with fs.utimes.
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderChecker, folderSchema, type FolderSpec } from '../../src/health/checkers/folder.js';
import { testCheckContext } from '../helpers/checkContext.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
let root: string;

async function put(rel: string, bytes: number, ageMs: number): Promise<void> {
  const file = path.join(root, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, Buffer.alloc(bytes, 'x'));
  const t = new Date(Date.now() - ageMs);
  await utimes(file, t, t);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'folder-check-'));
  await put('a.log', 10, 2 * HOUR);
  await put('b.log', 2048, 10 * MIN);
  await put('c.txt', 1, 3 * DAY);
  await put('sub/d.log', 5, HOUR);
  await symlink(path.join(root, 'a.log'), path.join(root, 'link.log'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const run = (fields: Partial<FolderSpec>) =>
  folderChecker.run(folderSchema.parse({ name: 'folder-test', path: root, ...fields }), testCheckContext());

/** The folder detail a result carries (bound as `results`). */
const res = (r: { results?: unknown }) => r.results as Record<string, unknown>;

describe('folder', () => {
  it('lists the files of the folder with count, size, oldest and newest', async () => {
    const r = await run({ minCount: 1 });
    expect(r.error).toBeUndefined();
    expect(r.pass).toBe(true);
    expect(res(r).count).toBe(4);
    expect(res(r).size).toBe(10 + 2048 + 1 + 10);
    expect((res(r).files as Array<{ name: string }>).map((f) => f.name)).toEqual([
      'a.log',
      'b.log',
      'c.txt',
      'link.log',
    ]);
    expect((res(r).oldest as { name: string }).name).toBe('c.txt');
    expect((res(r).newest as { name: string }).name).toBe('b.log');
    expect((res(r).largest as { name: string; size: number }).size).toBe(2048);
    expect(typeof (res(r).newest as { modified: string }).modified).toBe('string');
    expect(r.message).toMatch(/^4 files, 2 KB, newest 10m old$/);
  });

  it('walks subfolders when recursive', async () => {
    const r = await run({ recursive: true, minCount: 5 });
    expect(r.pass).toBe(true);
    expect((res(r).files as Array<{ name: string }>).map((f) => f.name)).toContain(path.join('sub', 'd.log'));
  });

  it('filters by regex, age and size before judging', async () => {
    const logs = await run({ filter: { regex: '\\.log$' }, recursive: true });
    expect(res(logs).count).toBe(4);
    const fresh = await run({ filter: { maxAge: '1h30m' }, recursive: true });
    expect((res(fresh).files as Array<{ name: string }>).map((f) => f.name)).toEqual([
      'b.log',
      path.join('sub', 'd.log'),
    ]);
    const old = await run({ filter: { minAge: '1d' } });
    expect(res(old).count).toBe(1);
    const big = await run({ filter: { minSize: '1KB' } });
    expect(res(big).count).toBe(1);
    const since = await run({ filter: { since: 'now-90m' }, recursive: true });
    expect(res(since).count).toBe(2);
  });

  it('fails on too few or too many files', async () => {
    const few = await run({ minCount: 10 });
    expect(few.pass).toBe(false);
    expect(few.error).toBe('too few files: 4, expected at least 10');
    const many = await run({ maxCount: 2 });
    expect(many.error).toBe('too many files: 4, expected at most 2');
  });

  it('fails when the newest file is younger than minAge, or the oldest older than maxAge', async () => {
    const young = await run({ minAge: '30m' });
    expect(young.pass).toBe(false);
    expect(young.error).toBe('newest file b.log is 10m old, younger than the 30m minimum age');
    const old = await run({ maxAge: '1d' });
    expect(old.error).toBe('oldest file c.txt is 3d old, older than the 1d maximum age');
    expect((await run({ maxAge: '1w', minAge: '5m' })).pass).toBe(true);
  });

  it('fails on a file smaller than minSize or larger than maxSize', async () => {
    const small = await run({ minSize: '5b' });
    expect(small.error).toBe('smallest file c.txt is 1 B, under the 5 B minimum');
    const large = await run({ maxSize: '1KB' });
    expect(large.error).toBe('largest file b.log is 2 KB, over the 1 KB maximum');
    expect((await run({ filter: { regex: '^a' }, minSize: 5, maxSize: '1kb' })).pass).toBe(true);
  });

  it('checks free space on the file system', async () => {
    const r = await run({ availableSize: '1KB' });
    expect(r.pass).toBe(true);
    expect(res(r).availableSize as number).toBeGreaterThan(0);
    const huge = await run({ availableSize: '1000000TB' });
    expect(huge.pass).toBe(false);
    expect(huge.error).toMatch(/^only .* free on the file system of .*, under the 976\.6 PB minimum$/);
  });

  it('treats a missing folder as empty, and says so when files were expected', async () => {
    const missing = path.join(root, 'absent');
    const empty = await folderChecker.run(folderSchema.parse({ name: 'f', path: missing }), testCheckContext());
    expect(empty.pass).toBe(true);
    expect(empty.data).toMatchObject({ exists: false });
    expect(empty.results).toMatchObject({ count: 0, files: [] });
    const r = await folderChecker.run(
      folderSchema.parse({ name: 'f', path: missing, minCount: 1 }),
      testCheckContext(),
    );
    expect(r.error).toBe(`too few files: 0, expected at least 1 (${missing} does not exist)`);
  });

  it('fails on a path that is a file, and refuses remote paths', async () => {
    const r = await run({ path: path.join(root, 'a.log') });
    expect(r.error).toBe(`${path.join(root, 'a.log')} is not a directory`);
    const s3 = await run({ path: 's3://bucket/prefix' });
    expect(s3.invalid).toBe(true);
    expect(s3.error).toBe('folder checks on s3:// paths are not supported yet; only local paths are');
  });

  it('validates durations, sizes and regexes', () => {
    const r = folderSchema.safeParse({
      name: 'f',
      path: '/x',
      maxAge: 'yesterday',
      minSize: 'lots',
      filter: { regex: '(' },
    });
    const messages = r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(messages).toContain('filter.regex: not a valid regular expression');
    expect(messages.some((m) => m.startsWith('maxAge:'))).toBe(true);
    expect(messages.some((m) => m.startsWith('minSize:'))).toBe(true);
  });
});
