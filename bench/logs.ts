// `npm run bench -- logs`: POST /api/logs over one big log file (default 1 GB) through a file
// backend: the first page (newest 100 lines), a search for a term in 1 line of 1,000, a search for
// a term on no line (one page: the scan budget ends it), the next page after each; p50/p95/max
// per request kind, and the server's RSS (this process: the server runs in it, on PGlite) before and
// at its peak during the requests, next to the file's size (memory must not follow it).
//
// The file is generated once into $TMPDIR/opsdeck-bench-logs/app-<size>.log (timestamps spread
// over the last hour, ~95 bytes a line) and reused while its size matches.
//
// Flags: --size-mb 1024, --requests 40 (per kind), --warmup 3.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { startOpsdeck } from '../server/src/app.js';
import { createToken } from '../server/src/auth/tokens.js';
import { openPglite } from '../server/src/db/database.js';
import { loadavg, numberFlag, parseFlags, percentile, printTable } from './lib.js';

const flags = parseFlags(process.argv.slice(2));
const SIZE_MB = numberFlag(flags, 'size-mb', 1024);
const REQUESTS = numberFlag(flags, 'requests', 40);
const WARMUP = numberFlag(flags, 'warmup', 3);

const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** ~95-byte lines over the last hour, oldest first; "user=7 " on 1 line of 1,000. */
async function generate(file: string, bytes: number): Promise<void> {
  const lines = Math.ceil(bytes / 95);
  const t0 = Date.now() - 3_600_000;
  const step = 3_600_000 / lines;
  const out = fs.createWriteStream(file);
  let batch = '';
  for (let i = 0; i < lines; i++) {
    const ts = new Date(t0 + i * step).toISOString();
    const user = i % 1000 === 0 ? 7 : 100 + (i % 900);
    batch += `${ts} INFO http GET /api/items/${i % 5000} status=200 user=${user} took=${i % 250}ms req=${i.toString(36)}\n`;
    if (batch.length > 1 << 20) {
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  out.end(batch);
  await once(out, 'finish');
}

async function main() {
  const dir = path.join(os.tmpdir(), 'opsdeck-bench-logs');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `app-${SIZE_MB}mb.log`);
  const want = SIZE_MB * 1024 * 1024;
  const have = fs.existsSync(file) ? fs.statSync(file).size : 0;
  if (have < want * 0.99) {
    log(`generating ${SIZE_MB} MB into ${file}`);
    const started = Date.now();
    await generate(file, want);
    log(`generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else {
    log(`reusing ${file} (${mb(have)} MB)`);
  }
  // Its timestamps were spread over the hour before it was written: search the day around it.
  const start = new Date(fs.statSync(file).mtimeMs - 2 * 3_600_000).toISOString();

  const db = await openPglite(undefined);
  const app = await startOpsdeck({ database: db, port: 0, host: '127.0.0.1', engines: false, demo: false });
  try {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO people (name, email) VALUES ('Bench', 'bench@opsdeck.local') RETURNING id`,
    );
    await db.query(`INSERT INTO person_roles (person_id, role) VALUES ($1, 'admin')`, [rows[0]!.id]);
    const { token } = await createToken(db, { name: 'bench', personId: rows[0]!.id, createdBy: null });
    await db.query(`INSERT INTO logging_backends (name, spec) VALUES ('bench', $1)`, [
      JSON.stringify({ file: [{ paths: [file] }] }),
    ]);
    const call = async (body: Record<string, unknown>) => {
      const t = performance.now();
      const res = await fetch(`${app.url}/api/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ backend: 'bench', start, limit: 100, ...body }),
      });
      const page = (await res.json()) as { results?: unknown[]; nextCursor?: string | null; error?: string };
      if (!res.ok) throw new Error(`HTTP ${res.status}: ${page.error}`);
      return { ms: performance.now() - t, page };
    };

    const kinds: { name: string; body: Record<string, unknown> }[] = [
      { name: 'first page', body: {} },
      { name: 'search "user=7 " (1 line in 1,000)', body: { query: 'user=7 ' } },
      { name: 'search /status=5\\d\\d/ (no line)', body: { query: '/status=5\\d\\d/' } },
    ];
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    const table: (string | number)[][] = [];
    for (const kind of kinds) {
      for (let i = 0; i < WARMUP; i++) await call(kind.body);
      const first: number[] = [];
      const next: number[] = [];
      let lines = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const a = await call(kind.body);
        first.push(a.ms);
        lines = a.page.results?.length ?? 0;
        if (a.page.nextCursor) next.push((await call({ ...kind.body, cursor: a.page.nextCursor })).ms);
      }
      const row = (label: string, v: number[]) => [
        label,
        v.length,
        percentile(v, 50).toFixed(1),
        percentile(v, 95).toFixed(1),
        Math.max(...v).toFixed(1),
      ];
      table.push([...row(kind.name, first), lines]);
      if (next.length) table.push([...row(`  its next page`, next), '']);
    }
    clearInterval(sampler);
    console.log(`\n/api/logs over ${mb(fs.statSync(file).size)} MB (${path.basename(file)}), file backend\n`);
    printTable(['request', 'n', 'p50 ms', 'p95 ms', 'max ms', 'lines'], table);
    console.log(
      `\nserver RSS (in-process, PGlite): ${mb(rssBefore)} MB before, ${mb(rssPeak)} MB peak during the requests`,
    );
    console.log(`load: ${loadavg()} (${os.cpus().length} CPUs)`);
  } finally {
    await app.close();
    await db.close();
  }
}

await main();
