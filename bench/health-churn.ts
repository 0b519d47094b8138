// A child of `npm run bench -- health --part summary`: records results for the checks of the
// database in DATABASE_URL through the engine's own recordResult, round robin, RATE a second (as an
// engine running every check once a minute would), until stopped; prints how many on SIGTERM.
// Its own process, so its work does not slow the benchmark's requests down.
import { openPostgres } from '../server/src/db/database.js';
import { recordResult } from '../server/src/health/store.js';

const db = await openPostgres(process.env.DATABASE_URL!, 4);
const rate = Number(process.env.RATE ?? 167);
const ids = (await db.query<{ id: string }>(`SELECT id FROM checks WHERE deleted_at IS NULL`)).rows.map((r) => r.id);
let recorded = 0;
let running = true;
process.on('SIGTERM', () => (running = false));
const perTick = Math.max(1, Math.round(rate / 10));
while (running) {
  const tick = performance.now();
  await Promise.all(
    Array.from({ length: perTick }, () =>
      recordResult(
        db,
        ids[recorded++ % ids.length]!,
        { pass: true, invalid: false, durationMs: 5 + (recorded % 20), message: null, error: null, details: undefined },
        new Date(),
      ),
    ),
  );
  await new Promise((r) => setTimeout(r, Math.max(0, 100 - (performance.now() - tick))));
}
await db.close();
console.log(`recorded ${recorded}`);
