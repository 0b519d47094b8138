// Graceful shutdown's pieces: running a step within what is left of a deadline, and handing the
// leases a stopping replica still holds back to the others when its engines did not stop in time
// (scheduled canaries, topologies and scrapers; notification sends). Runs go back through
// PlaybookRunner.releaseAll; event-queue claims are transactions, rolled back when the connection closes.
import type { Database } from './db/database.js';
import { logger } from './log.js';

const log = logger('shutdown');

/** Waits for `work` until `deadline` (ms since epoch); answers whether it finished in time. */
export async function within(work: Promise<unknown>, deadline: number): Promise<boolean> {
  if (deadline === Infinity) {
    await work.catch(() => undefined);
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface LeaseOwners {
  /** Owner strings of the leased schedulers (health, topology, catalog). */
  schedulers: string[];
  /** The notification delivery's owner. */
  notifications: string;
}

/** Releases every lease the owners hold, so another replica takes the work at its next poll. */
export async function releaseLeases(db: Database, owners: LeaseOwners): Promise<number> {
  let released = 0;
  for (const table of ['canaries', 'topologies', 'config_scrapers']) {
    const { rows } = await db.query(
      `UPDATE ${table} SET lease_until = NULL, lease_owner = NULL WHERE lease_owner = ANY($1::text[]) RETURNING id`,
      [owners.schedulers],
    );
    released += rows.length;
  }
  const { rows } = await db.query(
    `UPDATE notification_send_history SET lease_until = NULL, lease_owner = NULL
     WHERE status = 'pending' AND lease_owner = $1 RETURNING id`,
    [owners.notifications],
  );
  released += rows.length;
  if (released) log.info({ released }, `released ${released} lease(s) for the other replicas`);
  return released;
}
