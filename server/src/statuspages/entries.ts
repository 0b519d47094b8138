// Which checks and components a status page lists: each section's entries (name, id or label
// selector) resolved against the live rows, in the order written (a selector's matches by name),
// once per section. Also answers whether an entry is on any public page (for badges).
import type { Queryable } from '../db/database.js';
import { UUID } from '../resources/routes.js';
import { matchesLabels, parseLabelSelector } from '../selectors/labelSelector.js';
import type { StatusPageEntry, StatusPageSpec } from './resource.js';

export type EntryKind = 'check' | 'component';

/** A live check or component as the page needs it: never its spec, labels beyond matching, or messages. */
export interface EntryRow {
  id: string;
  name: string;
  labels: Record<string, string>;
  /** checks.status (healthy, unhealthy or null) or components.health. */
  health: string | null;
}

export interface ResolvedSection {
  name: string;
  entries: { kind: EntryKind; row: EntryRow }[];
}

const LISTS = { check: 'checks', component: 'components' } as const;

const SQL: Record<EntryKind, string> = {
  check: `SELECT id::text, name, labels, status AS health FROM checks
          WHERE deleted_at IS NULL AND (id = ANY($1::uuid[]) OR name = ANY($2::text[]) OR $3::boolean)`,
  component: `SELECT id::text, name, labels, health FROM components
              WHERE deleted_at IS NULL AND (id = ANY($1::uuid[]) OR name = ANY($2::text[]) OR $3::boolean)`,
};

/** The rows every entry of one kind could match: by id, by name, and all rows when a selector is used. */
async function candidates(db: Queryable, kind: EntryKind, entries: StatusPageEntry[]): Promise<EntryRow[]> {
  if (!entries.length) return [];
  const ids = entries.map((e) => e.id).filter((id): id is string => id !== undefined && UUID.test(id));
  const names = entries.map((e) => e.name).filter((n): n is string => n !== undefined);
  const selectors = entries.some((e) => e.labelSelector !== undefined);
  const { rows } = await db.query<EntryRow>(SQL[kind], [ids, names, selectors]);
  return rows.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** An entry as a test of a row (a selector parsed once). */
function matcher(entry: StatusPageEntry): (row: EntryRow) => boolean {
  if (entry.id !== undefined) {
    const id = entry.id.toLowerCase();
    return (row) => row.id === id;
  }
  if (entry.name !== undefined) return (row) => row.name === entry.name;
  if (entry.labelSelector === undefined) return () => false;
  try {
    const requirements = parseLabelSelector(entry.labelSelector);
    return (row) => matchesLabels(row.labels ?? {}, requirements);
  } catch {
    return () => false; // validated on apply; a stored one that no longer parses matches nothing
  }
}

export async function resolveSections(db: Queryable, spec: StatusPageSpec): Promise<ResolvedSection[]> {
  const all = (kind: EntryKind) => spec.sections.flatMap((s) => s[LISTS[kind]] ?? []);
  const [checks, components] = await Promise.all([
    candidates(db, 'check', all('check')),
    candidates(db, 'component', all('component')),
  ]);
  const pool = { check: checks, component: components };
  return spec.sections.map((section) => {
    const entries: ResolvedSection['entries'] = [];
    const seen = new Set<string>();
    for (const kind of ['component', 'check'] as const)
      for (const entry of section[LISTS[kind]] ?? []) {
        const matches = matcher(entry);
        for (const row of pool[kind]) {
          if (!matches(row) || seen.has(`${kind}:${row.id}`)) continue;
          seen.add(`${kind}:${row.id}`);
          entries.push({ kind, row });
        }
      }
    return { name: section.name, entries };
  });
}

/** Whether a check or component appears on a public (not private, not deleted) page. */
export async function onPublicPage(db: Queryable, kind: EntryKind, row: EntryRow): Promise<boolean> {
  const { rows } = await db.query<{ spec: StatusPageSpec }>(
    'SELECT spec FROM status_pages WHERE deleted_at IS NULL AND NOT private',
  );
  return rows.some(({ spec }) =>
    (spec.sections ?? []).some((s) => (s[LISTS[kind]] ?? []).some((entry) => matcher(entry)(row))),
  );
}
