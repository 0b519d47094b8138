// Send-history retention: decisions older than the raw-data retention (CHECK_RETENTION_DAYS, "with
// the other raw tables") are deleted in batches; rows still pending are kept whatever their age.
// Newer rows may point at an old one (parent_id, inhibited_by): those links are cleared first.
import type { Database } from '../db/database.js';

/** Deletes send history older than `days`; returns how many rows went. */
export async function pruneSendHistory(db: Database, days: number, batch = 5000): Promise<number> {
  if (days <= 0) return 0;
  let total = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `SELECT id FROM notification_send_history
         WHERE created_at < now() - make_interval(days => $1) AND status <> 'pending'
         ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [days, batch],
      );
      if (!rows.length) return 0;
      const ids = rows.map((r) => r.id);
      await tx.query(
        `UPDATE notification_send_history SET parent_id = NULL WHERE parent_id = ANY($1::uuid[]) AND NOT (id = ANY($1::uuid[]))`,
        [ids],
      );
      await tx.query(
        `UPDATE notification_send_history SET inhibited_by = NULL
         WHERE inhibited_by = ANY($1::uuid[]) AND NOT (id = ANY($1::uuid[]))`,
        [ids],
      );
      const r = await tx.query('DELETE FROM notification_send_history WHERE id = ANY($1::uuid[])', [ids]);
      return r.affectedRows ?? ids.length;
    });
    total += n;
    if (n < batch) return total;
  }
}
