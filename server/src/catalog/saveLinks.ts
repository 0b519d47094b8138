// Parents, paths and relationships of a catalog save: owner references and relationship rules resolved to items.
import type { Queryable } from '../db/database.js';
import type { ItemRef, ScrapedItem } from './extract.js';
import { batched, keyOf, type ExistingRow } from './saveRows.js';

const kindOf = (type: string) => (type.split('::').pop() ?? type).toLowerCase();

/** Parents (parent_id, path) and config_relationships from owner references and relationship rules. */
export async function linkItems(
  tx: Queryable,
  scraperId: string,
  items: Map<string, ScrapedItem>,
  ids: Map<string, string>,
  existingRows: ExistingRow[],
) {
  // Every live item of the scraper can be referenced: by external id, or by kind + name + namespace.
  const byExternal = new Map<string, string>();
  const byName = new Map<string, string>();
  const typeOf = new Map<string, string>();
  const index = (id: string, externalId: string, type: string, name: string | null, namespace: string | undefined) => {
    byExternal.set(externalId, id);
    typeOf.set(id, type);
    if (name) {
      byName.set(`${kindOf(type)}/${name}/${namespace ?? ''}`, id);
      byName.set(`${type.toLowerCase()}/${name}/${namespace ?? ''}`, id);
    }
  };
  for (const r of existingRows)
    if (r.deleted_at === null && !items.has(keyOf(r.type, r.external_id)))
      index(r.id, r.external_id, r.type, r.name, r.tags?.namespace);
  for (const [key, it] of items) index(ids.get(key)!, it.externalId, it.type, it.name, it.tags.namespace);
  const resolve = (ref: ItemRef): string | undefined => {
    if (ref.externalId && byExternal.has(ref.externalId)) return byExternal.get(ref.externalId);
    if (!ref.name) return undefined;
    const type = (ref.type ?? '').toLowerCase();
    return (
      byName.get(`${type}/${ref.name}/${ref.namespace ?? ''}`) ??
      byName.get(`${kindOf(type)}/${ref.name}/${ref.namespace ?? ''}`) ??
      // Cluster-scoped targets (a Namespace) have no namespace of their own.
      byName.get(`${kindOf(type)}/${ref.name}/`)
    );
  };

  const parentOf = new Map<string, string | null>();
  for (const r of existingRows) parentOf.set(r.id, r.parent_id);
  const wanted = new Map<string, { config_id: string; related_id: string; selector_id: string; relation: string }>();
  for (const [key, it] of items) {
    const id = ids.get(key)!;
    const parent = it.parent ? resolve(it.parent) : undefined;
    parentOf.set(id, parent && parent !== id ? parent : null);
    for (const link of it.links) {
      const other = resolve(link.ref);
      if (!other || other === id) continue;
      const [from, to] = link.parent ? [other, id] : [id, other];
      const relation = link.relation ?? `${typeOf.get(from)!.split('::').pop()}${typeOf.get(to)!.split('::').pop()}`;
      wanted.set(`${from}/${to}/${link.selectorId}`, {
        config_id: from,
        related_id: to,
        selector_id: link.selectorId,
        relation,
      });
    }
  }
  // Paths: ancestors root first; a cycle in references stops the walk.
  const pathOf = (id: string): string => {
    const chain: string[] = [];
    const seen = new Set([id]);
    let p = parentOf.get(id) ?? null;
    while (p && !seen.has(p) && chain.length < 50) {
      chain.unshift(p);
      seen.add(p);
      p = parentOf.get(p) ?? null;
    }
    return chain.join('.');
  };
  const oldById = new Map(existingRows.map((r) => [r.id, r]));
  const parentUpdates: { id: string; parent_id: string | null; path: string }[] = [];
  for (const key of items.keys()) {
    const id = ids.get(key)!;
    const parent_id = parentOf.get(id) ?? null;
    const path = pathOf(id);
    const old = oldById.get(id);
    if (!old || old.parent_id !== parent_id || old.path !== path) parentUpdates.push({ id, parent_id, path });
  }
  await batched(parentUpdates, (chunk) =>
    tx.query(
      `UPDATE config_items c SET parent_id = r.parent_id, path = r.path
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, parent_id uuid, path text) WHERE c.id = r.id`,
      [JSON.stringify(chunk)],
    ),
  );

  // Relationships this scraper's rules own: add the new, revive the returning, retire the gone.
  const { rows: current } = await tx.query<{
    config_id: string;
    related_id: string;
    selector_id: string;
    deleted_at: unknown;
  }>(
    `SELECT r.config_id, r.related_id, r.selector_id, r.deleted_at FROM config_relationships r
     JOIN config_items i ON i.id = r.related_id OR i.id = r.config_id
     WHERE i.scraper_id = $1 AND (r.selector_id = 'parent' OR r.selector_id LIKE 'relationship:%')`,
    [scraperId],
  );
  const have = new Map(current.map((r) => [`${r.config_id}/${r.related_id}/${r.selector_id}`, r]));
  const add = [...wanted.entries()].filter(([k]) => !have.has(k) || have.get(k)!.deleted_at !== null).map(([, v]) => v);
  const seenIds = new Set(ids.values());
  const retire = [...have.entries()]
    .filter(
      ([k, r]) => r.deleted_at === null && !wanted.has(k) && (seenIds.has(r.config_id) || seenIds.has(r.related_id)),
    )
    .map(([, r]) => r);
  await batched(add, (chunk) =>
    tx.query(
      `INSERT INTO config_relationships (config_id, related_id, selector_id, relation)
       SELECT r.config_id, r.related_id, r.selector_id, r.relation
       FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, related_id uuid, selector_id text, relation text)
       ON CONFLICT (config_id, related_id, selector_id) DO UPDATE SET deleted_at = NULL, relation = EXCLUDED.relation, updated_at = now()`,
      [JSON.stringify(chunk)],
    ),
  );
  await batched(retire, (chunk) =>
    tx.query(
      `UPDATE config_relationships r SET deleted_at = now(), updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS x(config_id uuid, related_id uuid, selector_id text)
       WHERE r.config_id = x.config_id AND r.related_id = x.related_id AND r.selector_id = x.selector_id`,
      [JSON.stringify(chunk.map(({ config_id, related_id, selector_id }) => ({ config_id, related_id, selector_id })))],
    ),
  );
}
