import { describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { LeasedScheduler } from './leasedScheduler.js';
import type { LeasedRow } from './leases.js';

const row = (id: string): LeasedRow => ({
  id,
  name: id,
  namespace: 'default',
  schedule: null,
  next_runtime: new Date(),
});

/** A database that hands out `due` to claims and answers tryLease with nothing leased but the row existing. */
function fakeDb(due: LeasedRow[]): Database & { sql: string[] } {
  const sql: string[] = [];
  return {
    kind: 'postgres',
    sql,
    async query<T>(text: string, params?: unknown[]) {
      sql.push(text);
      if (text.includes('FOR UPDATE SKIP LOCKED')) return { rows: due.splice(0, params![1] as number) as T[] };
      if (text.startsWith('SELECT 1')) return { rows: [{}] as T[] };
      return { rows: [] as T[] };
    },
  } as unknown as Database & { sql: string[] };
}

class Fake extends LeasedScheduler<LeasedRow, string> {
  readonly started: string[] = [];
  release: () => void = () => {};
  private gate = new Promise<void>((r) => (this.release = r));

  async run(r: LeasedRow, scheduled: boolean) {
    this.started.push(r.id);
    await this.gate;
    await this.finish(r, new Date(), scheduled);
    return r.id;
  }
}

const job = { name: 'fake', rowLabel: 'row', table: { table: 'topologies', columns: '*', retryMs: 1 } as const };

describe('the leased scheduler', () => {
  it('claims no more than its free capacity and waits for the runs under way when stopped', async () => {
    const db = fakeDb([row('a'), row('b'), row('c')]);
    const s = new Fake(db, job, { maxConcurrent: 2 }, { pollMs: 1000, maxConcurrent: 9 });
    expect(await s.tick()).toBe(2);
    expect(await s.tick()).toBe(0);
    expect(s.started).toEqual(['a', 'b']);
    const stopped = s.stop();
    s.release();
    await stopped;
    expect(db.sql.filter((q) => q.includes('last_runtime'))).toHaveLength(2);
    expect(await s.tick()).toBe(1);
  });

  it('answers busy to Run Now while another run holds the lease', async () => {
    const s = new Fake(fakeDb([]), job, {}, { pollMs: 1000, maxConcurrent: 1 });
    expect(await s.runNow('a')).toBe('busy');
  });
});
