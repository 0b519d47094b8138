// Check results recorded together: the results that finish within a few milliseconds of each other
// on this replica (the checks of a canary run 8 at a time, and 32 canaries at once) go into one
// transaction of three statements (store.ts recordResults) instead of one transaction each. At
// hundreds of checks a second this divides the database's commits, round trips and per-statement
// triggers by the batch size. Each caller still waits for its own result to be committed.
//
// One batch is written at a time (group commit): the results that arrive meanwhile make the next
// one, and a check's results are stored in the order they came. A batch that fails as a whole (one
// bad row fails the statement) is written again one result at a time, so only the result at fault
// is refused.
import type { Database } from '../db/database.js';
import { recordResults, type ResultToRecord, type StoredResult } from './store.js';

interface Pending extends ResultToRecord {
  resolve: (transitioned: boolean) => void;
  reject: (e: unknown) => void;
}

export class ResultBatcher {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The batch being written: one at a time, so a check's results are stored in the order they came. */
  private writing: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    /** How long the first result of a batch waits for others. */
    private readonly delayMs = 5,
    /** The most results in one batch; this many pending are written at once. */
    private readonly maxBatch = 100,
  ) {}

  /** Records one result; resolves once it is committed, with whether the check's status changed. */
  record(checkId: string, result: StoredResult, time: Date): Promise<{ transitioned: boolean }> {
    const done = new Promise<boolean>((resolve, reject) => {
      this.pending.push({ checkId, result, time, resolve, reject });
    });
    if (this.pending.length >= this.maxBatch) this.kick();
    else this.timer ??= setTimeout(() => this.kick(), this.delayMs);
    return done.then((transitioned) => ({ transitioned }));
  }

  /** Starts writing what is pending unless a batch is being written (its end starts the next). */
  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing || !this.pending.length) return;
    // Up to maxBatch results, and a check at most once (its next result goes in the next batch).
    const batch: Pending[] = [];
    const ids = new Set<string>();
    let i = 0;
    for (; i < this.pending.length && batch.length < this.maxBatch; i++) {
      const p = this.pending[i]!;
      if (ids.has(p.checkId)) break;
      ids.add(p.checkId);
      batch.push(p);
    }
    this.pending = this.pending.slice(i);
    this.writing = this.write(batch).finally(() => {
      this.writing = undefined;
      this.kick();
    });
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const transitioned = await recordResults(this.db, batch);
      batch.forEach((p, i) => p.resolve(transitioned[i]!));
    } catch (e) {
      if (batch.length === 1) return batch[0]!.reject(e);
      // One at a time: the others are recorded, the result at fault gets its own error.
      for (const p of batch) {
        await recordResults(this.db, [p]).then(
          ([t]) => p.resolve(t!),
          (err: unknown) => p.reject(err),
        );
      }
    }
  }
}
