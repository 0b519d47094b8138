// Validated writes of connections through /api/db/connections (docs/api.md "Connections"): rows are
// checked like the console's form (validateConnection), given their type's defaults on create and
// their canonical type name; a secret written as {value} or {valueFrom: {secretKeyRef}} becomes the
// value or its `secret://name/key` address; one wrong row refuses the whole write (nothing stored).
import {
  CONNECTION_COLUMNS,
  connectionType,
  SECRET_CONNECTION_COLUMNS,
  validateConnection,
  withConnectionDefaults,
  type ConnectionFieldError,
} from '@opsdeck/common';
import type { Queryable } from '../db/database.js';
import { ApiError } from '../rest/errors.js';
import type { WriteGuard } from '../rest/writeGuards.js';

/** A field error of one row of an array body (row is its index). */
export type RowFieldError = ConnectionFieldError & { row?: number };

/** The 400 answer of a refused write or form: the first message, every field in details. */
function invalidConnection(errors: RowFieldError[]): ApiError {
  return new ApiError(400, 'INVALID_CONNECTION', errors[0]?.message ?? 'invalid connection', errors);
}

/** `{value}` → the value, `{valueFrom: {secretKeyRef|configMapKeyRef: {name, key}}}` → its address. */
function flattenEnvValue(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as { value?: unknown; valueFrom?: Record<string, { name?: unknown; key?: unknown } | undefined> };
  if (o.value !== undefined) return o.value;
  const secret = o.valueFrom?.secretKeyRef;
  const configMap = o.valueFrom?.configMapKeyRef;
  const ref = secret ?? configMap;
  if (ref && typeof ref.name === 'string' && typeof ref.key === 'string')
    return `${secret ? 'secret' : 'configmap'}://${ref.name}/${ref.key}`;
  return v;
}

/**
 * A written connection in the stored shape: canonical type, EnvValue objects flattened, property
 * values as text (properties are a map of text). Unknown types are left for validation to name.
 */
export function normaliseConnection(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  const def = connectionType(typeof row.type === 'string' ? row.type : undefined);
  if (def) out.type = def.type;
  for (const col of ['url', 'username', ...SECRET_CONNECTION_COLUMNS])
    if (col in out) out[col] = flattenEnvValue(out[col]);
  const props = out.properties;
  if (props && typeof props === 'object' && !Array.isArray(props)) {
    out.properties = Object.fromEntries(
      Object.entries(props as Record<string, unknown>).map(([k, v]) => {
        const flat = flattenEnvValue(v);
        return [k, typeof flat === 'number' || typeof flat === 'boolean' ? String(flat) : flat];
      }),
    );
  }
  return out;
}

interface StoredRow {
  id: string;
  type: string;
  password: string | null;
  certificate: string | null;
  source?: string | null;
}

/** The filters of a write that name rows: id, name or namespace with eq. or in.(...). */
function rowFilters(query: [string, string][]): { column: string; values: string[] }[] {
  const out: { column: string; values: string[] }[] = [];
  for (const [key, raw] of query) {
    if (!['id', 'name', 'namespace'].includes(key)) continue;
    if (raw.startsWith('eq.')) out.push({ column: key, values: [raw.slice(3)] });
    else if (/^in\.\(.*\)$/.test(raw))
      out.push({
        column: key,
        values: raw
          .slice(4, -1)
          .split(',')
          .map((v) => v.trim().replace(/^"(.*)"$/, '$1')),
      });
  }
  return out;
}

/** The stored rows the filters name (undefined when the filters name none by id, name or namespace). */
async function storedRows(
  db: Queryable,
  filters: { column: string; values: string[] }[],
): Promise<StoredRow[] | undefined> {
  if (!filters.length) return undefined;
  const values: unknown[] = [];
  const where = filters.map(({ column, values: vs }) => {
    values.push(vs);
    // Compared as text so a malformed id matches nothing instead of failing the cast.
    return `${column}::text = ANY($${values.length}::text[])`;
  });
  const { rows } = await db.query<StoredRow>(
    `SELECT id::text AS id, type, password, certificate, source FROM connections WHERE ${where.join(' AND ')} LIMIT 1000`,
    values,
  );
  return rows;
}

/** Does a patch change a field whose rules depend on the type? */
function touchesTypeFields(row: Record<string, unknown>): boolean {
  return [...CONNECTION_COLUMNS, 'properties'].some((k) => k in row);
}

/** An update replaces `properties` whole: the type's property defaults go back into it. */
function withPropertyDefaults(row: Record<string, unknown>, type: string): void {
  const props = row.properties;
  if (!props || typeof props !== 'object' || Array.isArray(props)) return;
  row.properties = withConnectionDefaults({ type, properties: props }).properties;
}

/** An update replaces `properties` whole: the type's required properties must be in it. */
function patchErrors(row: Record<string, unknown>, type: string): ConnectionFieldError[] {
  const errors = validateConnection({ ...row, type }, { partial: true });
  if ('properties' in row) {
    const known = new Set(errors.map((e) => e.field));
    for (const e of validateConnection({ ...row, type })) {
      if (e.field.startsWith('properties.') && !known.has(e.field)) errors.push(e);
    }
  }
  return errors;
}

async function guardPatch(
  rows: Record<string, unknown>[],
  query: [string, string][],
  db: Queryable,
): Promise<{ rows: Record<string, unknown>[]; errors: RowFieldError[] }> {
  const errors: RowFieldError[] = [];
  const filters = rowFilters(query);
  // The rows the filters name, looked up once: read-only ones refuse the write; their type checks it.
  const stored = await storedRows(db, filters);
  refuseReadOnly(stored);
  const out: Record<string, unknown>[] = [];
  for (const [i, raw] of rows.entries()) {
    const row = normaliseConnection(raw);
    out.push(row);
    const at = rows.length > 1 ? { row: i } : {};
    if ('type' in row || !touchesTypeFields(row)) {
      const def = connectionType(typeof row.type === 'string' ? row.type : undefined);
      const found = def ? patchErrors(row, def.type) : validateConnection(row, { partial: true });
      errors.push(...found.map((e) => ({ ...e, ...at })));
      if (def) withPropertyDefaults(row, def.type);
      continue;
    }
    if (!stored) {
      errors.push({
        ...at,
        field: 'type',
        message: 'a change to a connection\'s fields needs its type: filter by id=eq.<id> (or name) or give "type"',
      });
      continue;
    }
    const types = [...new Set(stored.map((s) => s.type))];
    // Checked against each stored type matched (none matched: nothing will change but the plain fields).
    const found: ConnectionFieldError[] = types.length ? [] : validateConnection(row, { partial: true });
    for (const type of types) {
      const def = connectionType(type);
      for (const e of def ? patchErrors(row, def.type) : validateConnection(row, { partial: true }))
        if (!found.some((x) => x.field === e.field)) found.push(e);
    }
    errors.push(...found.map((e) => ({ ...e, ...at })));
    const only = types.length === 1 ? connectionType(types[0]) : undefined;
    if (only) withPropertyDefaults(row, only.type);
  }
  return { rows: out, errors };
}

async function guardCreate(
  rows: Record<string, unknown>[],
  query: [string, string][],
  db: Queryable,
): Promise<{ rows: Record<string, unknown>[]; errors: RowFieldError[] }> {
  const errors: RowFieldError[] = [];
  // A row that replaces a stored one (PUT, or an upsert by id) keeps the secrets it leaves out.
  const ids = rows.map((r) => r.id).filter((id): id is string => typeof id === 'string');
  const idFilter = query.find(([k, v]) => k === 'id' && v.startsWith('eq.'))?.[1].slice(3);
  const lookup = [...ids, ...(idFilter ? [idFilter] : [])];
  const stored = lookup.length ? ((await storedRows(db, [{ column: 'id', values: lookup }])) ?? []) : [];
  refuseReadOnly(stored);
  const out = rows.map((raw, i) => {
    const row = normaliseConnection(raw);
    const id = typeof row.id === 'string' ? row.id : rows.length === 1 ? idFilter : undefined;
    const previous = stored.find((s) => s.id === id);
    if (previous) for (const col of SECRET_CONNECTION_COLUMNS) if (!(col in row)) row[col] = previous[col];
    for (const e of validateConnection(row)) errors.push({ ...e, ...(rows.length > 1 ? { row: i } : {}) });
    return withConnectionDefaults(row);
  });
  return { rows: out, errors };
}

/**
 * spec/3 §6: a connection whose source is not the console (UI or empty) is changed where it came
 * from, not here — the same rule the notification and log-backend guards apply.
 */
function refuseReadOnly(stored: StoredRow[] | undefined): void {
  const foreign = stored?.find((r) => r.source && r.source !== 'UI');
  if (foreign)
    throw new ApiError(403, 'READ_ONLY_SOURCE', `This connection came from ${foreign.source}: change it there`);
}

/** The /api/db/connections write guard (registered in http/app.ts). */
export const connectionWriteGuard: WriteGuard = async ({ method, rows, query, db }) => {
  const { rows: out, errors } =
    method === 'PATCH' ? await guardPatch(rows, query, db) : await guardCreate(rows, query, db);
  if (errors.length) throw invalidConnection(errors);
  return out;
};
