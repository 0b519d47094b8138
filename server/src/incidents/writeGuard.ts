// /api/db/incident_rules writes (the console's and scripts' way of saving a rule): a row's `spec` is
// an IncidentRule — the whole resource or only its spec, as the table stores either — checked by
// POST /api/incidents/rules' own parser (a bad one is a 400 with that endpoint's message), stored as
// that endpoint stores it (the parsed spec, defaults filled, the name from the resource). The rules
// engine reads the table at every pass, so a written rule is used at the next pass and a soft
// delete (PATCH deleted_at) stops it. Rules from YAML/CLI (source not UI) are changed where they
// came from.
import { ApiError } from '../rest/errors.js';
import {
  BOOKKEEPING_COLUMNS,
  present,
  refuseReadOnlySource,
  storedRows,
  targetIds,
  type WriteGuard,
} from '../rest/writeGuards.js';
import { UUID } from '../resources/routes.js';
import { resourceErrorBody } from '../resources/yaml.js';
import { parseIncidentRule } from './rules.js';

const ENDPOINT = 'POST /api/incidents/rules';
const invalid = (message: string) => new ApiError(400, 'INVALID_RESOURCE', message);

/** The rule a row's spec (resource or bare spec) and name make, as the apply endpoint parses it. */
function parseRow(spec: unknown, name: unknown): { name: string; spec: unknown } {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
    throw invalid(`spec: the IncidentRule resource (or its spec) as ${ENDPOINT} takes it (an object)`);
  const whole = 'kind' in spec;
  const data = whole ? spec : { ...spec, ...(present(name) && !('name' in spec) ? { name } : {}) };
  let rule: { name: string; spec: unknown };
  try {
    rule = parseIncidentRule({ data, locate: () => undefined });
  } catch (e) {
    const body = resourceErrorBody(e);
    if (body) throw new ApiError(400, body.code, body.message, body.errors);
    throw e;
  }
  if (present(name) && name !== rule.name)
    throw invalid(`name: "${String(name)}" is not the spec's name "${rule.name}"; the name comes from the spec`);
  return rule;
}

export const incidentRuleWriteGuard: WriteGuard = async ({ method, rows, query, db }) => {
  for (const row of rows)
    if (present(row.source) && row.source !== 'UI')
      throw invalid(`source: rows written here are UI rules; apply a resource for ${String(row.source)}`);
  if (method === 'POST') {
    const ids = rows.map((r) => r.id).filter((id): id is string => typeof id === 'string' && UUID.test(id));
    for (const stored of await storedRows(db, 'incident_rules', ids)) refuseReadOnlySource(stored, 'rule');
    return rows.map((row) => {
      if (present(row.deleted_at)) throw invalid('deleted_at: a new rule is live');
      const rule = parseRow(row.spec, row.name);
      return { ...row, name: rule.name, spec: rule.spec, source: 'UI' };
    });
  }
  const ids = targetIds(query);
  if (!ids?.length) throw invalid('name the rule to change: ?id=eq.<id>');
  const stored = await storedRows(db, 'incident_rules', ids);
  for (const before of stored) refuseReadOnlySource(before, 'rule');
  const change = rows[0] ?? {};
  if (Object.keys(change).every((k) => BOOKKEEPING_COLUMNS.has(k))) return rows;
  if (!('spec' in change) && !('name' in change)) return rows;
  if (stored.length > 1) throw invalid('change one rule at a time: ?id=eq.<id>');
  const before = stored[0];
  if (!before) return rows;
  const rule = parseRow('spec' in change ? change.spec : before.spec, change.name ?? before.name);
  return [{ ...change, name: rule.name, spec: rule.spec }];
};
