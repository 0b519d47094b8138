// The file log backend on real files: a file that keeps growing and is rotated, plain and regex
// search, and paging through a million-line file with flat memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogLine } from '@opsdeck/common';
import { fileBackend } from '../src/logs/backends/file.js';
import { textMatcher } from '../src/logs/backends/query.js';
import type { LogPage, LogQuery, SearchContext } from '../src/logs/backends/types.js';

const ctx: SearchContext = {
  signal: new AbortController().signal,
  timeoutMs: 10_000,
  connection: async () => undefined,
  resolve: async () => undefined,
};

function query(over: Partial<LogQuery> & { text?: string } = {}): LogQuery {
  const text = over.text ?? '';
  return {
    text,
    match: textMatcher(text),
    start: new Date(Date.now() - 30 * 86_400_000),
    end: new Date(Date.now() + 86_400_000),
    limit: 100,
    selector: {},
    ...over,
  };
}

const T0 = Date.now() - 3_600_000;
const line = (n: number, text = 'ok') => `${new Date(T0 + n * 1000).toISOString()} line ${n} ${text}\n`;
const numbers = (page: LogPage | LogLine[]) =>
  ('results' in page ? page.results : page).map((l) => Number(/line (\d+)/.exec(l.message)![1]));

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-logs-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('file backend: a growing, rotated file', () => {
  it('reads newest first, sees appended lines, and follows rotation across pages', async () => {
    const file = path.join(dir, 'app.log');
    fs.writeFileSync(file, [1, 2, 3, 4, 5].map((n) => line(n)).join(''));
    const entries = [{ paths: [path.join(dir, '*.log')], labels: { app: 'shop' } }];

    const first = await fileBackend.search(entries, query(), ctx);
    expect(numbers(first)).toEqual([5, 4, 3, 2, 1]);
    expect(first.results[0]!.labels).toEqual({ app: 'shop', file });
    expect(first.results[0]!.timestamp).toBe(new Date(T0 + 5000).toISOString());
    expect(first.nextCursor).toBeNull();

    // The test keeps appending: a new request sees the new lines.
    fs.appendFileSync(file, line(6) + line(7));
    expect(numbers(await fileBackend.search(entries, query({ limit: 3 }), ctx))).toEqual([7, 6, 5]);

    // Page 1 of 3 lines, then the file rotates (app.log → app.log.1, a new app.log) before page 2.
    const page1 = await fileBackend.search(entries, query({ limit: 3 }), ctx);
    expect(numbers(page1)).toEqual([7, 6, 5]);
    fs.renameSync(file, `${file}.1`);
    fs.writeFileSync(file, line(8) + line(9));
    const later = new Date();
    fs.utimesSync(`${file}.1`, new Date(later.getTime() - 60_000), new Date(later.getTime() - 60_000));
    const page2 = await fileBackend.search(entries, query({ limit: 3, cursor: page1.nextCursor! }), ctx);
    expect(numbers(page2)).toEqual([4, 3, 2]);
    const page3 = await fileBackend.search(entries, query({ limit: 3, cursor: page2.nextCursor! }), ctx);
    expect(numbers(page3)).toEqual([1]);
    expect(page3.nextCursor).toBeNull();

    // A new first page reads the current file, then the rotated one.
    const all = await fileBackend.search(entries, query(), ctx);
    expect(numbers(all)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(all.results[0]!.labels.file).toBe(file);
    expect(all.results[2]!.labels.file).toBe(`${file}.1`);
  });

  it('searches plain text case-insensitively and /regex/, within the time range', async () => {
    const file = path.join(dir, 'search.log');
    fs.writeFileSync(
      file,
      line(1, 'GET /cart 200') +
        line(2, 'GET /cart 504 upstream Timeout') +
        line(3, 'POST /pay 500') +
        'no time here\n',
    );
    const entries = [{ paths: [file] }];
    expect(numbers(await fileBackend.search(entries, query({ text: 'timeout' }), ctx))).toEqual([2]);
    expect(numbers(await fileBackend.search(entries, query({ text: '/ 5\\d\\d/' }), ctx))).toEqual([3, 2]);
    const range = query({ start: new Date(T0 + 1500), end: new Date(T0 + 2500) });
    expect(numbers(await fileBackend.search(entries, range, ctx))).toEqual([2]);
    // A line without a time of its own has the file's modification time.
    const untimed = await fileBackend.search(entries, query({ text: 'no time' }), ctx);
    expect(untimed.results.map((l) => l.message)).toEqual(['no time here']);
    expect(Date.parse(untimed.results[0]!.timestamp)).toBeCloseTo(fs.statSync(file).mtimeMs, -3);
    // A syslog time takes the year of the file.
    fs.writeFileSync(file, 'Jan  2 03:04:05 host app[1]: started\n');
    fs.utimesSync(file, new Date('2025-06-01T00:00:00Z'), new Date('2025-06-01T00:00:00Z'));
    const syslog = await fileBackend.search(entries, query({ start: new Date('2025-01-01T00:00:00Z') }), ctx);
    expect(syslog.results[0]!.timestamp).toBe('2025-01-02T03:04:05.000Z');
  });

  it('refuses relative and malformed globs', async () => {
    const problems = await fileBackend.problems!({ paths: ['logs/*.log', '/var/log/{a,b.log', '/ok/*.log'] }, ctx);
    expect(problems.map((p) => p.path)).toEqual([
      ['paths', 0],
      ['paths', 1],
    ]);
    expect(problems[0]!.message).toMatch(/absolute path/);
  });
});

describe('file backend: a million lines', () => {
  const LINES = 1_000_000;
  let big: string;

  beforeAll(async () => {
    big = path.join(dir, 'big.log');
    const out = fs.createWriteStream(big);
    let batch = '';
    for (let n = 1; n <= LINES; n++) {
      batch += `${new Date(T0 + n).toISOString()} line ${n} request handled in ${n % 97} ms${n === 123_456 ? ' needle' : ''}\n`;
      if (n % 10_000 === 0) {
        if (!out.write(batch)) await once(out, 'drain');
        batch = '';
      }
    }
    out.end();
    await once(out, 'finish');
  }, 60_000);

  it('pages through every line in order with bounded memory', async () => {
    const entries = [{ paths: [big] }];
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    let cursor: string | undefined;
    let expected = LINES;
    let pages = 0;
    do {
      const page = await fileBackend.search(entries, query({ limit: 1000, cursor }), ctx);
      const got = numbers(page);
      expect(got[0]).toBe(expected);
      expect(got.at(-1)).toBe(expected - got.length + 1);
      expected -= got.length;
      cursor = page.nextCursor ?? undefined;
      peak = Math.max(peak, process.memoryUsage().rss);
      pages++;
    } while (cursor);
    expect(expected).toBe(0);
    expect(pages).toBe(1000);
    expect(peak - rssBefore).toBeLessThan(100 * 1024 * 1024);
  }, 120_000);

  it('finds a rare line searching backwards through the whole file', async () => {
    const rssBefore = process.memoryUsage().rss;
    let cursor: string | undefined;
    const found: LogLine[] = [];
    do {
      const page = await fileBackend.search([{ paths: [big] }], query({ text: 'NEEDLE', cursor }), ctx);
      found.push(...page.results);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(numbers(found)).toEqual([123_456]);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  }, 60_000);
});
