// The topology card query (GET /api/topology, spec/2 §2.6 and §7): the root components, or one
// component with its children, nested to a depth, with properties, summary and teams; filtered by
// type, status, team, labels, hidden and agent; sorted; flattened when a type is selected. Also the
// filter options (types, healthStatuses, teams) of what is in scope.
//
// parseTopologyQuery and shapeTopology are pure; loadTopology reads the database.
import type { Queryable } from '../db/database.js';
import { HttpError } from '../auth/middleware.js';
import { NO_AGENT } from '../db/agents.js';
import type { Property } from './builtComponent.js';
import type { ComponentSummary, Health } from './rollup.js';

/** Values to include and values to exclude; empty include means "any". */
export interface ListFilter {
  include: string[];
  exclude: string[];
}

export interface LabelFilter {
  key: string;
  value: string;
  exclude: boolean;
}

export interface TopologyQuery {
  id: string | null;
  status: ListFilter;
  type: ListFilter;
  team: ListFilter;
  labels: LabelFilter[];
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  flatten: boolean;
  /** Include hidden components (default true, as the console's "Show hidden components"). */
  hidden: boolean;
  agentId: string | null;
  /** Levels below the cards' parent: 1 = the cards, 2 = their children... */
  depth: number;
}

export const DEFAULT_DEPTH = 3;
export const MAX_DEPTH = 10;
/** The most components one answer carries (upper levels first). */
export const MAX_COMPONENTS = 5_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bad = (field: string, message: string) => new HttpError(400, 'VALIDATION', message, field);

/** `a,!b,c:1,d:-1` → include a, c; exclude b, d (`:0` is "no preference"). 'all' means no filter. */
export function parseList(value: string | undefined): ListFilter {
  const out: ListFilter = { include: [], exclude: [] };
  for (const raw of (value ?? '').split(',')) {
    let item = raw.trim();
    if (!item || item.toLowerCase() === 'all') continue;
    let exclude = false;
    const tri = /^(.*):(-?1|0)$/.exec(item);
    if (tri) {
      if (tri[2] === '0') continue;
      item = tri[1]!;
      exclude = tri[2] === '-1';
    }
    if (item.startsWith('!')) {
      exclude = true;
      item = item.slice(1);
    }
    if (item) (exclude ? out.exclude : out.include).push(item);
  }
  return out;
}

/** `k=v,k2!=v2`, the tri-state `k____v:1,k2____v2:-1`, or a JSON object `{"k":"v"}`. */
export function parseLabels(value: string | undefined): LabelFilter[] {
  const text = (value ?? '').trim();
  if (!text) return [];
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw bad('labels', 'labels must be key=value pairs separated by commas, or a JSON object');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw bad('labels', 'labels must be a JSON object of label names to values');
    return Object.entries(parsed as Record<string, unknown>).map(([key, v]) => ({
      key,
      value: String(v),
      exclude: false,
    }));
  }
  const out: LabelFilter[] = [];
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (!item) continue;
    let m = /^(.+?)____(.*):(-?1|0)$/.exec(item);
    if (m) {
      if (m[3] !== '0') out.push({ key: m[1]!, value: m[2]!, exclude: m[3] === '-1' });
      continue;
    }
    m = /^([^=!]+)(!=|==|=)(.*)$/.exec(item);
    if (!m) throw bad('labels', `labels: cannot read "${item}" (use key=value or key!=value, separated by commas)`);
    out.push({ key: m[1]!.trim(), value: m[3]!.trim(), exclude: m[2] === '!=' });
  }
  return out;
}

function parseBool(field: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw bad(field, `${field} must be true or false`);
}

export function parseTopologyQuery(q: Record<string, string | undefined>): TopologyQuery {
  const id = q.id?.trim() || null;
  if (id && !UUID.test(id)) throw bad('id', 'id must be a component id (a UUID)');
  const sortOrder = (q.sortOrder ?? 'desc').toLowerCase();
  if (sortOrder !== 'asc' && sortOrder !== 'desc') throw bad('sortOrder', 'sortOrder must be asc or desc');
  let agentId: string | null = null;
  const agent = q.agent_id?.trim();
  if (agent && agent !== 'all') {
    if (agent === 'local') agentId = NO_AGENT;
    else if (UUID.test(agent)) agentId = agent;
    else throw bad('agent_id', 'agent_id must be an agent id (a UUID), local or all');
  }
  let depth = DEFAULT_DEPTH;
  if (q.depth !== undefined && q.depth !== '') {
    depth = Number(q.depth);
    if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH)
      throw bad('depth', `depth must be a whole number from 1 to ${MAX_DEPTH}`);
  }
  return {
    id,
    status: parseList(q.status ?? q.health),
    type: parseList(q.type),
    team: parseList(q.team),
    labels: parseLabels(q.labels),
    sortBy: (q.sortBy ?? '').trim() || 'status',
    sortOrder,
    flatten: parseBool('flatten', q.flatten, false),
    hidden: parseBool('hidden', q.hidden ?? q.showHiddenComponents, true),
    agentId,
    depth,
  };
}

/** A component row as read from the database. */
export interface ComponentRow {
  id: string;
  topology_id: string | null;
  parent_id: string | null;
  agent_id: string;
  external_id: string | null;
  name: string;
  text: string | null;
  tooltip: string | null;
  type: string | null;
  icon: string | null;
  labels: Record<string, string>;
  properties: Property[];
  health: Health;
  status: string | null;
  status_reason: string | null;
  path: string;
  is_leaf: boolean;
  owner: string | null;
  hidden: boolean;
  summary: ComponentSummary;
  /** Where its logs are ([{name, backend, type, selector}] or null; 0023), for View Logs and the logs viewer. */
  logs: unknown[] | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface TeamRef {
  team_id: string;
  name: string;
  icon: string | null;
}

export interface CardComponent extends Omit<ComponentRow, 'status'> {
  status: string;
  teams: TeamRef[];
  components: CardComponent[];
}

export interface TopologyResponse {
  components: CardComponent[];
  teams: string[];
  types: string[];
  healthStatuses: string[];
}

export interface LoadedTopology {
  /** The component asked for by id, or null for the roots. */
  root: ComponentRow | null;
  /** The root (when asked by id) and the components below it, or the roots and theirs. */
  rows: ComponentRow[];
  /** Components outside `rows` that a component of `rows` selects: shown under it only. */
  extra: ComponentRow[];
  /** Components shown under another by a selector: parent id → child ids. */
  related: { parent: string; child: string }[];
  teams: { component_id: string; team_id: string; name: string; icon: string | null }[];
}

/** Health order for cards (spec/2 §2.6): unhealthy 1, warning 2, healthy 3, info/unknown 4. */
const HEALTH_RANK: Record<string, number> = { unhealthy: 1, warning: 2, healthy: 3 };
const rank = (h: string) => HEALTH_RANK[h] ?? 4;

function matches(filter: ListFilter, values: readonly string[]): boolean {
  if (filter.include.length && !filter.include.some((v) => values.includes(v))) return false;
  return !filter.exclude.some((v) => values.includes(v));
}

/** One collator for every comparison: String.prototype.localeCompare builds one per call (slow in sorts). */
const collator = new Intl.Collator();
const compareText = collator.compare;

function comparator(sortBy: string, order: 'asc' | 'desc'): (a: CardComponent, b: CardComponent) => number {
  const byName = (a: CardComponent, b: CardComponent) => compareText(a.name, b.name) || compareText(a.id, b.id);
  const key = sortBy.toLowerCase();
  let primary: (a: CardComponent, b: CardComponent) => number;
  if (key === 'status' || key === 'health') {
    // Descending puts the most severe first (unhealthy, warning, healthy, then the rest).
    primary = (a, b) => rank(b.health) - rank(a.health);
  } else if (key === 'name') primary = (a, b) => compareText(a.name, b.name);
  else if (key === 'type') primary = (a, b) => compareText(a.type ?? '', b.type ?? '');
  else if (key === 'updated_at' || key === 'last_updated' || key === 'lastupdated' || key === 'updated')
    primary = (a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at);
  else if (key === 'created_at') primary = (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at);
  else {
    // A headline property: numbers by value, else by text; components without it go last.
    const value = (c: CardComponent) => {
      const p = c.properties.find((x) => x.name === sortBy);
      return p ? (p.value ?? p.text ?? null) : null;
    };
    return (a, b) => {
      const va = value(a);
      const vb = value(b);
      if (va === null || vb === null) return va === vb ? byName(a, b) : va === null ? 1 : -1;
      const d = typeof va === 'number' && typeof vb === 'number' ? va - vb : compareText(String(va), String(vb));
      return (order === 'asc' ? d : -d) || byName(a, b);
    };
  }
  return (a, b) => (order === 'asc' ? primary(a, b) : -primary(a, b)) || byName(a, b);
}

/** Rows → the answer: nested cards, filtered and sorted, with the filter options. */
export function shapeTopology(loaded: LoadedTopology, q: TopologyQuery): TopologyResponse {
  const teamsOf = new Map<string, TeamRef[]>();
  for (const t of loaded.teams) {
    const list = teamsOf.get(t.component_id) ?? [];
    list.push({ team_id: t.team_id, name: t.name, icon: t.icon });
    teamsOf.set(t.component_id, list);
  }
  const nodes = new Map<string, CardComponent>();
  for (const r of [...loaded.rows, ...loaded.extra]) {
    nodes.set(r.id, { ...r, status: r.status ?? r.health, teams: teamsOf.get(r.id) ?? [], components: [] });
  }
  for (const r of loaded.rows) {
    if (r.parent_id && r.id !== loaded.root?.id) nodes.get(r.parent_id)?.components.push(nodes.get(r.id)!);
  }
  for (const e of loaded.related) {
    const parent = nodes.get(e.parent);
    const child = nodes.get(e.child);
    if (parent && child && child !== parent && !parent.components.includes(child)) parent.components.push(child);
  }

  const rootNode = loaded.root ? nodes.get(loaded.root.id)! : null;
  // What the cards are chosen from: everything below the root (flatten), its children, or the roots.
  let candidates: CardComponent[];
  const own = loaded.rows.filter((r) => r.id !== loaded.root?.id).map((r) => nodes.get(r.id)!);
  if (q.flatten) candidates = own;
  else if (rootNode) candidates = rootNode.components;
  else candidates = own.filter((n) => n.parent_id === null);

  const inScope = [...own, ...loaded.extra.map((r) => nodes.get(r.id)!)];
  const distinct = (values: (string | null)[]) =>
    [...new Set(values.filter((v): v is string => !!v))].sort(compareText);
  const response: Omit<TopologyResponse, 'components'> = {
    teams: distinct(inScope.flatMap((n) => n.teams.map((t) => t.name))),
    types: distinct(inScope.map((n) => n.type)),
    healthStatuses: distinct(inScope.map((n) => n.health)),
  };

  const cards = candidates.filter(
    (n) =>
      matches(q.type, n.type ? [n.type] : []) &&
      matches(q.status, [n.health, n.status]) &&
      matches(
        q.team,
        n.teams.flatMap((t) => [t.name, t.team_id]),
      ) &&
      q.labels.every((l) => (n.labels[l.key] === l.value) !== l.exclude),
  );

  const sort = comparator(q.sortBy, q.sortOrder);
  const seen = new Set<CardComponent>();
  const sortTree = (list: CardComponent[]) => {
    list.sort(sort);
    for (const c of list) {
      if (seen.has(c)) continue;
      seen.add(c);
      sortTree(c.components);
    }
  };
  sortTree(cards);
  // Copies for the answer; a selector pointing back up the tree would otherwise make a cycle.
  const copy = (n: CardComponent, ancestors: Set<string>): CardComponent => {
    ancestors.add(n.id);
    const components = n.components.filter((c) => !ancestors.has(c.id)).map((c) => copy(c, ancestors));
    ancestors.delete(n.id);
    return { ...n, components };
  };
  if (rootNode) return { components: [copy({ ...rootNode, components: cards }, new Set())], ...response };
  return { components: cards.map((c) => copy(c, new Set())), ...response };
}

const COLUMNS = `id, topology_id, parent_id, agent_id, external_id, name, text, tooltip, type, icon, labels, properties,
  health, status, status_reason, path, is_leaf, owner, hidden, summary, created_at, updated_at, deleted_at,
  log_selectors AS logs`;

/** Depth of a component: 0 for a root, the number of ancestors otherwise (a stored column, 0010). */
const DEPTH_SQL = 'depth';

/** Reads what the query needs: the subtree to its depth (all of it when flattened), teams, relations. */
export async function loadTopology(db: Queryable, q: TopologyQuery): Promise<LoadedTopology> {
  let root: ComponentRow | null = null;
  let rows: ComponentRow[];
  const filters = `deleted_at IS NULL AND ($1::boolean OR NOT hidden) AND ($2::uuid IS NULL OR agent_id = $2)`;
  if (q.id) {
    const found = await db.query<ComponentRow>(
      `SELECT ${COLUMNS} FROM components WHERE id = $1 AND deleted_at IS NULL`,
      [q.id],
    );
    root = found.rows[0] ?? null;
    if (!root) throw new HttpError(404, 'NOT_FOUND', 'No such component.');
    const prefix = root.path ? `${root.path}.${root.id}` : root.id;
    const rootDepth = root.path ? root.path.split('.').length : 0;
    const { rows: below } = await db.query<ComponentRow>(
      `SELECT ${COLUMNS} FROM components
       WHERE ${filters} AND ${DEPTH_SQL} > $3 AND ($5::int IS NULL OR ${DEPTH_SQL} <= $5) AND path LIKE $4
       ORDER BY ${DEPTH_SQL}, name LIMIT ${MAX_COMPONENTS}`,
      [
        q.hidden,
        q.agentId,
        rootDepth,
        // The prefix ends with a whole id: every path starting with it is the root's or below it.
        `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
        q.flatten ? null : rootDepth + q.depth,
      ],
    );
    rows = [root, ...below];
  } else {
    const { rows: all } = await db.query<ComponentRow>(
      `SELECT ${COLUMNS} FROM components
       WHERE ${filters} AND ($3::int IS NULL OR ${DEPTH_SQL} < $3)
       ORDER BY ${DEPTH_SQL}, name LIMIT ${MAX_COMPONENTS}`,
      [q.hidden, q.agentId, q.flatten ? null : q.depth],
    );
    rows = all;
  }
  const ids = rows.map((r) => r.id);
  // Components selected by a component of this answer are shown under it (one level).
  const { rows: relatedRows } = await db.query<ComponentRow & { relationship_id: string }>(
    `SELECT cr.relationship_id, ${COLUMNS.split(',')
      .map((c) => `c.${c.trim()}`)
      .join(', ')}
     FROM component_relationships cr JOIN components c ON c.id = cr.component_id
     WHERE cr.deleted_at IS NULL AND c.deleted_at IS NULL AND cr.relationship_id = ANY($1::uuid[])
       AND ($2::boolean OR NOT c.hidden) AND ($3::uuid IS NULL OR c.agent_id = $3)
     LIMIT ${MAX_COMPONENTS}`,
    [ids, q.hidden, q.agentId],
  );
  const known = new Set(ids);
  const extra: ComponentRow[] = [];
  for (const { relationship_id: _parent, ...row } of relatedRows) {
    if (known.has(row.id)) continue;
    known.add(row.id);
    extra.push(row);
  }
  const related = relatedRows.map((r) => ({ parent: r.relationship_id, child: r.id }));
  const { rows: teams } = await db.query<{ component_id: string; team_id: string; name: string; icon: string | null }>(
    `SELECT tc.component_id, t.id AS team_id, t.name, t.icon
     FROM team_components tc JOIN teams t ON t.id = tc.team_id
     WHERE t.deleted_at IS NULL AND tc.component_id = ANY($1::uuid[])
     ORDER BY t.name`,
    [[...known]],
  );
  return { root, rows, extra, related, teams };
}
