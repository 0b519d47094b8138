// Topology links written as selectors, matched to catalog items after a scrape.
import type { Queryable } from '../db/database.js';

/**
 * Topology links written as selectors (config_component_relationships rows without config_id) that
 * now match items: each gets a row with the item's id. Selectors: id, name, type/types, namespace,
 * labelSelector-less exact labels (`labels`), as the topology builder writes them.
 */
export async function resolveComponentLinks(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH sel AS (
       SELECT component_id, selector_id, selector FROM config_component_relationships
       WHERE config_id IS NULL AND deleted_at IS NULL AND selector IS NOT NULL),
     hits AS (
       SELECT DISTINCT s.component_id, s.selector_id, s.selector, i.id AS config_id FROM sel s
       JOIN config_items i ON i.deleted_at IS NULL
         AND (s.selector->>'id' IS NULL OR i.id::text = s.selector->>'id' OR i.external_id = s.selector->>'id')
         AND (s.selector->>'name' IS NULL OR i.name = s.selector->>'name')
         AND (s.selector->>'type' IS NULL OR i.type = s.selector->>'type' OR i.config_class = s.selector->>'type')
         AND (s.selector->>'namespace' IS NULL OR i.tags->>'namespace' = s.selector->>'namespace')
         AND (jsonb_typeof(s.selector->'labels') IS DISTINCT FROM 'object' OR i.labels @> (s.selector->'labels'))
       WHERE s.selector ?| array['id', 'name', 'type', 'namespace', 'labels'])
     INSERT INTO config_component_relationships (component_id, config_id, selector_id, selector)
     SELECT h.component_id, h.config_id, h.selector_id, h.selector FROM hits h
     WHERE NOT EXISTS (SELECT 1 FROM config_component_relationships x WHERE x.component_id = h.component_id
       AND x.config_id = h.config_id AND x.selector_id = h.selector_id AND x.deleted_at IS NULL)
     RETURNING 1 AS n`,
  );
  return rows.length;
}
