// Manual links between a component and a catalog item (config_component_relationships rows with
// selector_id 'manual'): made from the topology panel's "Link to catalog", removed from an item's
// Relationships tab (spec/2 §2.5, §2.6).
import { z } from 'zod';
import type { Database } from '../../db/database.js';

export const linkRequestSchema = z.strictObject({
  component_id: z.guid({ message: 'component_id must be a component id (a uuid)' }),
  config_id: z.guid({ message: 'config_id must be a catalog item id (a uuid)' }),
});
export type LinkRequest = z.infer<typeof linkRequestSchema>;

export const MANUAL = 'manual';

export type LinkResult = { created: boolean } | { missing: 'component' | 'config' };

/** Links them unless a live manual link exists already (idempotent). */
export async function linkConfig(db: Database, req: LinkRequest): Promise<LinkResult> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ component: boolean; config: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM components WHERE id = $1 AND deleted_at IS NULL) AS component,
              EXISTS (SELECT 1 FROM config_items WHERE id = $2 AND deleted_at IS NULL) AS config`,
      [req.component_id, req.config_id],
    );
    if (!rows[0]!.component) return { missing: 'component' };
    if (!rows[0]!.config) return { missing: 'config' };
    const inserted = await tx.query<{ component_id: string }>(
      `INSERT INTO config_component_relationships (component_id, config_id, selector_id)
       VALUES ($1, $2, '${MANUAL}')
       ON CONFLICT (component_id, (coalesce(config_id, '00000000-0000-0000-0000-000000000000'::uuid)), selector_id)
         WHERE deleted_at IS NULL DO NOTHING
       RETURNING component_id`,
      [req.component_id, req.config_id],
    );
    return { created: inserted.rows.length === 1 };
  });
}

/** Removes the live manual link (soft delete); false when there is none. Links made by selectors stay. */
export async function unlinkConfig(db: Database, req: LinkRequest): Promise<boolean> {
  const { rows } = await db.query<{ component_id: string }>(
    `UPDATE config_component_relationships SET deleted_at = now(), updated_at = now()
     WHERE component_id = $1 AND config_id = $2 AND selector_id = '${MANUAL}' AND deleted_at IS NULL
     RETURNING component_id`,
    [req.component_id, req.config_id],
  );
  return rows.length > 0;
}
