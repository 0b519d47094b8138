// /api/db write guards for notification rules and silences (the console's forms write rows): the same
// rules as applying a resource — events known, filter compiles, templates parse, durations of at
// least a minute, one recipient that exists, one silenced resource, until after from — and rows that
// came from YAML/CLI (source not UI) stay read-only here. Rule rows get `spec` written from columns.
import {
  formatDurationNs,
  notificationRowProblems,
  silenceRowProblems,
  SILENCE_RESOURCE_FIELDS,
  type FieldProblem,
} from '@opsdeck/common';
import type { Queryable } from '../db/database.js';
import { ApiError } from '../rest/errors.js';
import { present, storedRows, targetIds, type WriteGuard, type WriteGuardInput } from '../rest/writeGuards.js';
import { UUID } from '../resources/routes.js';
import { formatPath } from '../resources/yaml.js';
import { expressionProblem, findConnection, findPlaybook, NOTIFICATION_API_VERSION, urlProblem } from './resource.js';
import { silenceTargetExists } from './silenceResource.js';
import { selectorsProblems } from './silenceSelectors.js';

type Row = Record<string, unknown>;

/** Columns that are not the rule itself: a PATCH of only these (a soft delete) is not re-validated. */
const BOOKKEEPING = new Set(['deleted_at', 'updated_at', 'error', 'error_at']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The rule as a Notification resource (read back as YAML by GET /api/notification/:id/spec). */
export function notificationResourceFromRow(row: Row): Row {
  const services = Array.isArray(row.custom_services) ? (row.custom_services as Row[]) : [];
  const service = services[0] ?? {};
  const to: Row = present(row.person_id)
    ? { person: row.person_id }
    : present(row.team_id)
      ? { team: row.team_id }
      : Object.fromEntries(
          ['email', 'url', 'connection', 'playbook'].filter((k) => present(service[k])).map((k) => [k, service[k]]),
        );
  if (row.properties && typeof row.properties === 'object' && Object.keys(row.properties).length)
    to.properties = row.properties;
  const duration = (v: unknown) =>
    typeof v === 'number' || (typeof v === 'string' && v) ? formatDurationNs(Number(v)) : undefined;
  const spec: Row = {
    events: row.events,
    title: row.title || undefined,
    template: row.template || undefined,
    filter: row.filter || undefined,
    to,
    repeatInterval: duration(row.repeat_interval),
    waitFor: duration(row.wait_for),
    waitForEvalPeriod: duration(row.wait_for_eval_period),
    groupBy: Array.isArray(row.group_by) && row.group_by.length ? row.group_by : undefined,
    inhibit: Array.isArray(row.inhibitions) && row.inhibitions.length ? row.inhibitions : undefined,
  };
  return {
    apiVersion: NOTIFICATION_API_VERSION,
    kind: 'Notification',
    metadata: { name: row.name, namespace: row.namespace ?? 'default' },
    spec: Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined)),
  };
}

/** Everything wrong with a (merged) rule row, the database checks included; fills connection_id/playbook_id. */
async function ruleProblems(db: Queryable, row: Row): Promise<FieldProblem[]> {
  const problems = notificationRowProblems(row);
  for (const [field, kind] of [
    ['filter', 'cel'],
    ['title', 'template'],
    ['template', 'template'],
  ] as const) {
    const value = row[field];
    const wrong = typeof value === 'string' ? expressionProblem(kind, value) : undefined;
    if (wrong) problems.push({ field, message: wrong });
  }
  for (const [field, table, noun] of [
    ['person_id', 'people', 'person'],
    ['team_id', 'teams', 'team'],
  ] as const) {
    const id = row[field];
    if (!present(id)) continue;
    const found =
      typeof id === 'string' && UUID.test(id)
        ? (await db.query(`SELECT 1 FROM ${table} WHERE id = $1 AND deleted_at IS NULL`, [id])).rows.length > 0
        : false;
    if (!found) problems.push({ field, message: `no ${noun} with id "${String(id)}"` });
  }
  if (Array.isArray(row.custom_services)) {
    for (const [i, entry] of (row.custom_services as Row[]).entries()) {
      if (!entry || typeof entry !== 'object') continue;
      const field = `custom_services[${i}]`;
      if (typeof entry.url === 'string' && entry.url) {
        const wrong = urlProblem(entry.url);
        if (wrong) problems.push({ field: `${field}.url`, message: wrong });
      }
      if (typeof entry.email === 'string' && entry.email && !EMAIL.test(entry.email))
        problems.push({ field: `${field}.email`, message: `"${entry.email}" is not an email address` });
      for (const [key, find] of [
        ['connection', findConnection],
        ['playbook', findPlaybook],
      ] as const) {
        const ref = entry[key] ?? entry[`${key}_id`];
        if (!present(ref)) continue;
        const id = await find(db, String(ref));
        if (id) entry[`${key}_id`] = id;
        else problems.push({ field: `${field}.${key}`, message: `no ${key} "${String(ref)}"` });
      }
    }
  }
  return problems;
}

async function silenceProblems(db: Queryable, row: Row): Promise<FieldProblem[]> {
  const problems = silenceRowProblems(row);
  const wrong = typeof row.filter === 'string' ? expressionProblem('cel', row.filter) : undefined;
  if (wrong) problems.push({ field: 'filter', message: wrong });
  for (const p of selectorsProblems(row.selectors).slice(0, 1))
    problems.push({ field: 'selectors', message: `${formatPath(['selectors', ...p.path])}: ${p.message}` });
  for (const field of SILENCE_RESOURCE_FIELDS) {
    const id = row[field];
    if (present(id) && !(await silenceTargetExists(db, field, String(id))))
      problems.push({ field, message: `no ${field.replace(/_id$/, '')} with id "${String(id)}"` });
  }
  return problems;
}

interface GuardOptions {
  table: 'notifications' | 'notification_silences';
  noun: string;
  code: string;
  problems: (db: Queryable, row: Row) => Promise<FieldProblem[]>;
  /** Columns written from the merged row (rules: spec). */
  derive?: (merged: Row) => Row;
}

function guard(o: GuardOptions): WriteGuard {
  return async ({ method, rows, query, db }: WriteGuardInput) => {
    const readOnly = (stored: Row) => {
      if (present(stored.source) && stored.source !== 'UI')
        throw new ApiError(
          403,
          'READ_ONLY_SOURCE',
          `This ${o.noun} came from ${String(stored.source)}: change it there`,
        );
    };
    const refuse = (details: FieldProblem[]) => {
      throw new ApiError(400, o.code, details.map((d) => `${d.field}: ${d.message}`).join('; '), details);
    };
    for (const row of rows)
      if (present(row.source) && row.source !== 'UI')
        refuse([
          {
            field: 'source',
            message: `rows written here are UI ${o.noun}s; apply a resource for ${String(row.source)}`,
          },
        ]);

    if (method === 'POST') {
      const ids = rows.map((r) => r.id).filter((id): id is string => typeof id === 'string' && UUID.test(id));
      const stored = new Map((await storedRows(db, o.table, ids)).map((r) => [r.id as string, r]));
      const out: Row[] = [];
      const details: FieldProblem[] = [];
      for (const [i, row] of rows.entries()) {
        const before = typeof row.id === 'string' ? stored.get(row.id) : undefined;
        if (before) readOnly(before);
        const merged = { ...before, ...row };
        const found = await o.problems(db, merged);
        details.push(...found.map((p) => ({ ...p, field: rows.length > 1 ? `[${i}].${p.field}` : p.field })));
        out.push({ ...row, ...o.derive?.(merged), source: 'UI' });
      }
      if (details.length) refuse(details);
      return out;
    }

    // PATCH / PUT: the rows named by id, each checked with the change applied.
    const ids = targetIds(query);
    if (!ids) refuse([{ field: 'id', message: `name the ${o.noun} to change: ?id=eq.<id>` }]);
    const stored = await storedRows(db, o.table, ids!);
    for (const before of stored) readOnly(before);
    const change = rows[0] ?? {};
    if (Object.keys(change).every((k) => BOOKKEEPING.has(k))) return rows;
    if (stored.length > 1 && o.derive)
      refuse([{ field: 'id', message: `change one ${o.noun} at a time: ?id=eq.<id>` }]);
    const details: FieldProblem[] = [];
    let derived: Row = {};
    for (const before of stored) {
      const merged = { ...before, ...change };
      details.push(...(await o.problems(db, merged)));
      derived = o.derive?.(merged) ?? {};
    }
    if (details.length) refuse(details);
    return rows.map((r) => ({ ...r, ...derived }));
  };
}

/** The guards registered in http/app.ts by relation name. */
export function notificationWriteGuards(): [string, WriteGuard][] {
  return [
    [
      'notifications',
      guard({
        table: 'notifications',
        noun: 'rule',
        code: 'INVALID_NOTIFICATION',
        problems: ruleProblems,
        derive: (merged) => ({ spec: notificationResourceFromRow(merged) }),
      }),
    ],
    [
      'notification_silences',
      guard({ table: 'notification_silences', noun: 'silence', code: 'INVALID_SILENCE', problems: silenceProblems }),
    ],
  ];
}
