// The health roll-up pass: every live component's health and summary recomputed from the database.
import type { Database } from '../db/database.js';
import { componentHealthEvents, HEALTHS, rollupTree, type ComponentSummary, type Health } from './rollup.js';
import { canonicalJson } from './selectors.js';
import { COMPONENTS_LOCK } from './treeStore.js';

export interface RecomputeResult {
  ran: boolean;
  components: number;
  updated: number;
}

/**
 * Recomputes every live component's health and summary from its own health, linked checks and
 * configs, children and related components, and the open incidents and insights touching them,
 * writing only what changed and queueing a `component.<health>` event for each health change.
 * `wait` queues behind another replica's pass (after a run); otherwise a pass under way elsewhere
 * means this one is skipped.
 */
export async function recomputeHealth(db: Database, opts: { wait?: boolean } = {}): Promise<RecomputeResult> {
  return db.transaction(async (tx) => {
    if (opts.wait) await tx.query('SELECT pg_advisory_xact_lock($1)', [COMPONENTS_LOCK]);
    else {
      const { rows } = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [
        COMPONENTS_LOCK,
      ]);
      if (!rows[0]!.locked) return { ran: false, components: 0, updated: 0 };
    }
    const { rows: nodes } = await tx.query<{
      id: string;
      parent_id: string | null;
      topology_id: string | null;
      name: string;
      type: string | null;
      own_health: Health | null;
      health: Health;
      summary: ComponentSummary;
    }>(
      `SELECT id, parent_id, topology_id, name, type, own_health, health, summary FROM components WHERE deleted_at IS NULL`,
    );
    const { rows: checks } = await tx.query<{ component_id: string; check_id: string; status: string | null }>(
      `SELECT r.component_id, r.check_id, c.status
       FROM check_component_relationships r JOIN checks c ON c.id = r.check_id
       WHERE r.deleted_at IS NULL AND c.deleted_at IS NULL`,
    );
    const { rows: related } = await tx.query<{ component_id: string; relationship_id: string }>(
      `SELECT component_id, relationship_id FROM component_relationships WHERE deleted_at IS NULL`,
    );
    const { rows: configs } = await tx.query<{ component_id: string; config_id: string; health: string | null }>(
      `SELECT r.component_id, r.config_id, ci.health
       FROM config_component_relationships r JOIN config_items ci ON ci.id = r.config_id
       WHERE r.deleted_at IS NULL AND ci.deleted_at IS NULL`,
    );
    // Open insights of linked configs; open incidents with evidence on the component or opened for it.
    const { rows: insights } = await tx.query<{ component_id: string; id: string }>(
      `SELECT DISTINCT r.component_id, a.id
       FROM config_component_relationships r JOIN config_analysis a ON a.config_id = r.config_id
       WHERE r.deleted_at IS NULL AND a.status = 'open'`,
    );
    const { rows: incidents } = await tx.query<{ component_id: string; id: string }>(
      `SELECT e.component_id, i.id
       FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id JOIN incidents i ON i.id = h.incident_id
       WHERE e.component_id IS NOT NULL AND i.status NOT IN ('resolved', 'closed')
       UNION
       SELECT component_id, id FROM incidents WHERE component_id IS NOT NULL AND status NOT IN ('resolved', 'closed')`,
    );
    const rolled = rollupTree(
      nodes.map((n) => ({
        id: n.id,
        parentId: n.parent_id,
        ownHealth: (HEALTHS as readonly string[]).includes(n.own_health ?? '') ? n.own_health : null,
      })),
      checks.map((c) => ({ componentId: c.component_id, checkId: c.check_id, status: c.status })),
      related.map((r) => ({ parentId: r.relationship_id, childId: r.component_id })),
      {
        configs: configs.map((c) => ({ componentId: c.component_id, configId: c.config_id, health: c.health })),
        insights: insights.map((i) => ({ componentId: i.component_id, id: i.id })),
        incidents: incidents.map((i) => ({ componentId: i.component_id, id: i.id })),
      },
    );
    const changed = nodes.flatMap((n) => {
      const r = rolled.get(n.id);
      if (!r || (r.health === n.health && canonicalJson(r.summary) === canonicalJson(n.summary))) return [];
      return [{ id: n.id, health: r.health, summary: r.summary }];
    });
    if (changed.length) {
      await tx.query(
        `UPDATE components c SET health = r.health, summary = r.summary,
           updated_at = CASE WHEN c.health IS DISTINCT FROM r.health THEN now() ELSE c.updated_at END
         FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, health text, summary jsonb)
         WHERE c.id = r.id`,
        [JSON.stringify(changed)],
      );
    }
    const events = componentHealthEvents(
      nodes.flatMap((n) => {
        const r = rolled.get(n.id);
        return r && r.health !== n.health
          ? [{ id: n.id, name: n.name, type: n.type, topologyId: n.topology_id, previous: n.health, health: r.health }]
          : [];
      }),
    );
    if (events.length) {
      await tx.query(
        `INSERT INTO event_queue (name, properties)
         SELECT e.name, e.properties FROM jsonb_to_recordset($1::jsonb) AS e(name text, properties jsonb)`,
        [JSON.stringify(events)],
      );
    }
    return { ran: true, components: nodes.length, updated: changed.length };
  });
}
