// Component health roll-up, pure: a component is as healthy as the worst of what it reports itself,
// its linked checks, its linked configs and its children (unhealthy beats warning beats healthy;
// unknown when nothing is known), and its summary counts the checks, open incidents and open
// insights of its subtree (each counted once however many components it touches).

export const HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export type Health = (typeof HEALTHS)[number];

/** What cards show under a component: its subtree's checks, open incidents and open insights. */
export interface ComponentSummary {
  checks: { healthy: number; unhealthy: number; warning: number };
  incidents: number;
  insights: number;
}

const SEVERITY: Record<Health, number> = { unknown: 0, healthy: 1, warning: 2, unhealthy: 3 };

/** The worst of the states; unknown (and missing) states count only when nothing else is known. */
export function rollupHealth(states: readonly (Health | null | undefined)[]): Health {
  let worst: Health = 'unknown';
  for (const s of states) if (s && SEVERITY[s] > SEVERITY[worst]) worst = s;
  return worst;
}

/**
 * A health word as written by a spec or a lookup ("Healthy", "error", "ok"...) → a Health, or null
 * when the word says nothing about health (e.g. "Running").
 */
export function normalizeHealth(value: unknown): Health | null {
  if (typeof value !== 'string') return null;
  switch (value.trim().toLowerCase()) {
    case 'healthy':
    case 'ok':
    case 'pass':
    case 'passing':
      return 'healthy';
    case 'unhealthy':
    case 'error':
    case 'failed':
    case 'failing':
    case 'critical':
      return 'unhealthy';
    case 'warning':
    case 'warn':
    case 'degraded':
      return 'warning';
    case 'unknown':
      return 'unknown';
    default:
      return null;
  }
}

/** A check's stored status → its health; a check that never ran is unknown. */
export function checkHealth(status: string | null | undefined): Health {
  return status === 'healthy' ? 'healthy' : status === 'unhealthy' ? 'unhealthy' : 'unknown';
}

export interface HealthNode {
  id: string;
  parentId: string | null;
  ownHealth: Health | null;
}

export interface LinkedCheck {
  componentId: string;
  checkId: string;
  status: string | null;
}

/** A catalog item linked to a component (config_component_relationships): its health counts. */
export interface LinkedConfig {
  componentId: string;
  configId: string;
  health: string | null;
}

/** An open incident (with evidence on, or opened for, the component) or an open insight of a linked config. */
export interface LinkedItem {
  componentId: string;
  id: string;
}

export interface RollupLinks {
  configs?: readonly LinkedConfig[];
  incidents?: readonly LinkedItem[];
  insights?: readonly LinkedItem[];
}

/** A component shown under another by a selector: it counts toward that parent too. */
export interface RelatedEdge {
  parentId: string;
  childId: string;
}

export interface RolledUp {
  health: Health;
  summary: ComponentSummary;
}

/**
 * Rolls health and check counts up every tree (and relationship edge) at once. Cycles through
 * relationships are cut: a component never counts toward itself.
 */
export function rollupTree(
  nodes: readonly HealthNode[],
  checks: readonly LinkedCheck[],
  related: readonly RelatedEdge[] = [],
  links: RollupLinks = {},
): Map<string, RolledUp> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const children = new Map<string, string[]>();
  const addChild = (parent: string, child: string) => {
    if (!byId.has(parent) || !byId.has(child) || parent === child) return;
    const list = children.get(parent);
    if (list) list.push(child);
    else children.set(parent, [child]);
  };
  for (const n of nodes) if (n.parentId) addChild(n.parentId, n.id);
  for (const e of related) addChild(e.parentId, e.childId);
  const ownChecks = new Map<string, Map<string, Health>>();
  for (const c of checks) {
    if (!byId.has(c.componentId)) continue;
    let m = ownChecks.get(c.componentId);
    if (!m) ownChecks.set(c.componentId, (m = new Map()));
    m.set(c.checkId, checkHealth(c.status));
  }
  const configHealth = new Map<string, Health[]>();
  for (const c of links.configs ?? []) {
    if (!byId.has(c.componentId)) continue;
    const h = (HEALTHS as readonly string[]).includes(c.health ?? '') ? (c.health as Health) : 'unknown';
    const list = configHealth.get(c.componentId);
    if (list) list.push(h);
    else configHealth.set(c.componentId, [h]);
  }
  const group = (items: readonly LinkedItem[] | undefined) => {
    const out = new Map<string, Set<string>>();
    for (const i of items ?? []) {
      if (!byId.has(i.componentId)) continue;
      const set = out.get(i.componentId);
      if (set) set.add(i.id);
      else out.set(i.componentId, new Set([i.id]));
    }
    return out;
  };
  const ownIncidents = group(links.incidents);
  const ownInsights = group(links.insights);

  interface Partial {
    health: Health;
    checks: Map<string, Health>;
    incidents: Set<string>;
    insights: Set<string>;
  }
  const done = new Map<string, Partial>();
  const visiting = new Set<string>();

  // Iterative post-order walk, so deep trees cannot overflow the stack.
  const visit = (start: string) => {
    const stack: { id: string; expanded: boolean }[] = [{ id: start, expanded: false }];
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (done.has(top.id)) {
        stack.pop();
        continue;
      }
      if (!top.expanded) {
        top.expanded = true;
        visiting.add(top.id);
        for (const child of children.get(top.id) ?? []) {
          if (!done.has(child) && !visiting.has(child)) stack.push({ id: child, expanded: false });
        }
        continue;
      }
      stack.pop();
      visiting.delete(top.id);
      const own = ownChecks.get(top.id) ?? new Map<string, Health>();
      const subtree = new Map(own);
      const incidents = new Set(ownIncidents.get(top.id));
      const insights = new Set(ownInsights.get(top.id));
      const states: (Health | null)[] = [
        byId.get(top.id)!.ownHealth,
        ...own.values(),
        ...(configHealth.get(top.id) ?? []),
      ];
      for (const child of children.get(top.id) ?? []) {
        const c = done.get(child);
        if (!c) continue; // a cycle back to an ancestor
        states.push(c.health);
        for (const [id, h] of c.checks) subtree.set(id, h);
        for (const id of c.incidents) incidents.add(id);
        for (const id of c.insights) insights.add(id);
      }
      done.set(top.id, { health: rollupHealth(states), checks: subtree, incidents, insights });
    }
  };
  for (const n of nodes) visit(n.id);

  const out = new Map<string, RolledUp>();
  for (const [id, p] of done) {
    const counts = { healthy: 0, unhealthy: 0, warning: 0 };
    for (const h of p.checks.values()) if (h !== 'unknown') counts[h]++;
    out.set(id, {
      health: p.health,
      summary: { checks: counts, incidents: p.incidents.size, insights: p.insights.size },
    });
  }
  return out;
}

/** A component whose rolled-up health moved, as the roll-up pass saw it. */
export interface HealthChange {
  id: string;
  name: string;
  type: string | null;
  topologyId: string | null;
  previous: Health;
  health: Health;
}

export interface QueuedEvent {
  name: string;
  properties: Record<string, unknown>;
}

/** `component.<health>` events (FORMATS.md Events) for the components whose health changed. */
export function componentHealthEvents(changes: readonly HealthChange[]): QueuedEvent[] {
  return changes
    .filter((c) => c.previous !== c.health)
    .map((c) => ({
      name: `component.${c.health}`,
      properties: {
        id: c.id,
        name: c.name,
        type: c.type,
        topology_id: c.topologyId,
        status: c.health,
        previous: c.previous,
      },
    }));
}
