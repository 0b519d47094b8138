// Inline checks of a topology: one canary each, owned by the topology (canaries.source), created,
// updated and deleted as the topology's runs produce them.
import { CANARY_API_VERSION, parseCanary } from '../health/canary.js';
import type { Checker } from '../health/checker.js';
import { applyCanary, deleteCanary } from '../health/store.js';
import { NO_AGENT } from '../db/agents.js';
import type { Database } from '../db/database.js';
import { ResourceErrors } from '../resources/yaml.js';
import type { BuiltComponent } from './builtComponent.js';
import { canonicalJson } from './selectors.js';

/** What a topology creates is marked with this: its inline checks' canaries (`source`), its team links (`selector_id`). */
export const topologySource = (topologyId: string) => `topology:${topologyId}`;

export interface InlineLinks {
  /** By the inline check's selector id: its canary and that canary's checks. */
  links: Map<string, { canaryId: string; checkIds: string[] }>;
  names: Set<string>;
  errors: string[];
}

function walk(root: BuiltComponent, fn: (c: BuiltComponent) => void) {
  const stack = [root];
  while (stack.length) {
    const c = stack.pop()!;
    fn(c);
    stack.push(...c.children);
  }
}

/** Creates or updates the canary of every inline check, so the health engine runs them. */
export async function applyInlineChecks(
  db: Database,
  checkers: ReadonlyMap<string, Checker>,
  topology: { id: string; namespace: string },
  root: BuiltComponent,
): Promise<InlineLinks> {
  const out: InlineLinks = { links: new Map(), names: new Set(), errors: [] };
  const source = topologySource(topology.id);
  const inline: BuiltComponent['inlineChecks'] = [];
  walk(root, (c) => inline.push(...c.inlineChecks));
  for (const check of inline) {
    out.names.add(check.canaryName);
    try {
      const def = parseCanary(
        {
          data: {
            apiVersion: CANARY_API_VERSION,
            kind: 'Canary',
            metadata: { name: check.canaryName, namespace: topology.namespace },
            spec: check.spec,
          },
          locate: () => undefined,
        },
        checkers,
      );
      const { rows } = await db.query<{ id: string; source: string; spec: unknown }>(
        `SELECT id, source, spec FROM canaries WHERE agent_id = $1 AND namespace = $2 AND name = $3 AND deleted_at IS NULL`,
        [NO_AGENT, topology.namespace, check.canaryName],
      );
      const existing = rows[0];
      if (existing && existing.source !== source) {
        out.errors.push(
          `inline check "${check.canaryName}": a canary ${topology.namespace}/${check.canaryName} already exists and was not created by this topology`,
        );
        continue;
      }
      const canaryId =
        existing && canonicalJson(existing.spec) === canonicalJson(def.resource)
          ? existing.id
          : (await applyCanary(db, def, { source })).id;
      const checks = await db.query<{ id: string }>(
        `SELECT id FROM checks WHERE canary_id = $1 AND deleted_at IS NULL ORDER BY type, name`,
        [canaryId],
      );
      out.links.set(check.selectorId, { canaryId, checkIds: checks.rows.map((r) => r.id) });
    } catch (e) {
      const message = e instanceof ResourceErrors ? e.errors.map((x) => x.message).join('; ') : (e as Error).message;
      out.errors.push(`inline check "${check.canaryName}": ${message}`);
    }
  }
  return out;
}

/** Deletes the topology's inline-check canaries not in `keep` (their history stays). */
export async function removeInlineCanaries(db: Database, topologyId: string, keep: Set<string>): Promise<number> {
  const { rows } = await db.query<{ id: string; name: string }>(
    `SELECT id, name FROM canaries WHERE source = $1 AND deleted_at IS NULL`,
    [topologySource(topologyId)],
  );
  let removed = 0;
  for (const r of rows) {
    if (keep.has(r.name)) continue;
    if (await deleteCanary(db, r.id)) removed++;
  }
  return removed;
}
