// The connection form ↔ a connections row: each type's fields (common's CONNECTION_TYPES) are columns
// or properties; secret fields are written only when something new was typed, so an edit keeps the
// stored secret; an update sends only what changed. Validation is common's validateConnection, the
// rules the server applies to the same row, with its messages moved onto the form's field paths.
import {
  CONNECTION_COLUMNS,
  connectionType,
  validateConnection,
  type ConnectionField,
} from '@opsdeck/common/connections';
import type { ConnectionRow, ConnectionWrite } from './connectionsApi';
import { decodeSecretRef, encodeSecret, type SecretMode, type StoredSecret } from './secretValue';

export type SecretColumn = 'password' | 'certificate';

export interface ConnectionFormValues {
  name: string;
  namespace: string;
  type: string;
  /** By field key: text for text-like fields (secrets: what the input holds), true/false for booleans. */
  fields: Record<string, string | boolean>;
  /** By secret field key. */
  secretModes: Record<string, SecretMode>;
}

export type StoredSecrets = Partial<Record<SecretColumn, StoredSecret>>;

/** A message for a field of the form: `name`, `namespace`, `type` or `fields.<key>`. */
export interface FormFieldError {
  path: string;
  message: string;
}

const DEFAULT_NAMESPACE = 'default';

const isColumn = (key: string) => (CONNECTION_COLUMNS as readonly string[]).includes(key);

function fieldDefault(field: ConnectionField): string | boolean {
  const value = field.default;
  if (field.kind === 'boolean') return value === true || value === 'true';
  return value === undefined ? '' : String(value);
}

/** A new connection of a type: namespace 'default' and the type's defaults. */
export function formDefaults(type: string): ConnectionFormValues {
  const def = connectionType(type);
  const values: ConnectionFormValues = { name: '', namespace: DEFAULT_NAMESPACE, type, fields: {}, secretModes: {} };
  for (const field of def?.fields ?? []) {
    values.fields[field.key] = fieldDefault(field);
    if (field.kind === 'secret') values.secretModes[field.key] = 'static';
  }
  return values;
}

/** What a stored row holds in its secret columns. */
export function storedSecrets(row: ConnectionRow): StoredSecrets {
  return {
    password: { set: row.has_password, ref: row.password_ref ?? undefined },
    certificate: { set: row.has_certificate, ref: row.certificate_ref ?? undefined },
  };
}

const asText = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** The form for a stored row: secrets empty (a reference shows its address), properties as text. */
export function rowToForm(row: ConnectionRow): ConnectionFormValues {
  const def = connectionType(row.type);
  const values: ConnectionFormValues = {
    name: row.name,
    namespace: row.namespace,
    type: def?.type ?? row.type,
    fields: {},
    secretModes: {},
  };
  const stored = storedSecrets(row);
  for (const field of def?.fields ?? []) {
    if (field.kind === 'secret') {
      const ref = decodeSecretRef(stored[field.key as SecretColumn]?.ref);
      values.secretModes[field.key] = ref?.mode ?? 'static';
      values.fields[field.key] = ref?.address ?? '';
      continue;
    }
    const raw = isColumn(field.key)
      ? (row as unknown as Record<string, unknown>)[field.key]
      : row.properties?.[field.key];
    values.fields[field.key] = field.kind === 'boolean' ? raw === true || raw === 'true' : asText(raw);
  }
  return values;
}

/** A secret field's value to send: what was typed, unless it is empty or the stored reference as it was. */
function typedSecret(values: ConnectionFormValues, key: string, stored: StoredSecret | undefined): string | undefined {
  const encoded = encodeSecret(values.secretModes[key] ?? 'static', asText(values.fields[key]));
  if (!encoded || encoded === stored?.ref) return undefined;
  return encoded;
}

/**
 * The row the form describes (a create, or a test's body): columns and properties of the type's
 * fields, blank ones left out; secrets only when typed (with `stored`, the stored ones are kept).
 */
export function formToWrite(values: ConnectionFormValues, stored: StoredSecrets = {}): ConnectionWrite {
  const def = connectionType(values.type);
  const row: ConnectionWrite = { name: values.name.trim(), namespace: values.namespace.trim(), type: values.type };
  const properties: Record<string, string> = {};
  for (const field of def?.fields ?? []) {
    const value = values.fields[field.key];
    if (field.kind === 'secret') {
      const secret = typedSecret(values, field.key, stored[field.key as SecretColumn]);
      if (secret !== undefined) row[field.key as SecretColumn] = secret;
    } else if (field.key === 'insecure_tls') {
      row.insecure_tls = value === true;
    } else if (field.kind === 'boolean') {
      properties[field.key] = value === true ? 'true' : 'false';
    } else {
      const text = asText(value).trim();
      if (!text) continue;
      if (field.key === 'url' || field.key === 'username') row[field.key] = text;
      else properties[field.key] = text;
    }
  }
  if (Object.keys(properties).length) row.properties = properties;
  return row;
}

/** Where a server field (`url`, `properties.port`) is in the form. */
export function formPath(serverField: string): string {
  if (['name', 'namespace', 'type'].includes(serverField)) return serverField;
  return `fields.${serverField.replace(/^properties\./, '')}`;
}

// Stands for a stored secret left untouched, so a required secret that is set passes validation.
const KEPT_SECRET = 'kept';

/** The form's problems, by the rules the server applies (common's validateConnection). */
export function validateForm(values: ConnectionFormValues, stored: StoredSecrets = {}): FormFieldError[] {
  const row: ConnectionWrite = formToWrite(values, stored);
  for (const column of ['password', 'certificate'] as const)
    if (row[column] === undefined && stored[column]?.set) row[column] = stored[column]?.ref ?? KEPT_SECRET;
  const seen = new Set<string>();
  const errors: FormFieldError[] = [];
  for (const e of validateConnection({ ...row })) {
    const path = formPath(e.field);
    if (seen.has(path)) continue;
    seen.add(path);
    errors.push({ path, message: e.message });
  }
  return errors;
}

const textMap = (props: Record<string, unknown> | null | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(props ?? {}).map(([k, v]) => [k, asText(v)]));

function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => k in b && a[k] === b[k]);
}

/**
 * An update of a stored row: only the fields the form changed. Properties are one column, so a
 * changed property sends the map with the stored keys the form does not show kept; a secret goes
 * only when a new value was typed.
 */
export function connectionPatch(row: ConnectionRow, values: ConnectionFormValues): ConnectionWrite {
  const next = formToWrite(values, storedSecrets(row));
  const def = connectionType(values.type);
  const patch: ConnectionWrite = {};
  if (next.name !== row.name) patch.name = next.name;
  if (next.namespace !== row.namespace) patch.namespace = next.namespace;
  if (next.type !== row.type && connectionType(row.type)?.type !== next.type) patch.type = next.type;
  for (const column of ['url', 'username'] as const) {
    const value = next[column] ?? null;
    if (value !== (row[column] ?? null)) patch[column] = value;
  }
  if (next.insecure_tls !== undefined && next.insecure_tls !== row.insecure_tls) patch.insecure_tls = next.insecure_tls;
  for (const column of ['password', 'certificate'] as const)
    if (next[column] !== undefined) patch[column] = next[column];

  const before = textMap(row.properties);
  const after = { ...before };
  for (const field of def?.fields ?? []) {
    if (isColumn(field.key)) continue;
    const value = next.properties?.[field.key];
    if (value === undefined) delete after[field.key];
    else after[field.key] = value;
  }
  if (!sameMap(before, after)) patch.properties = after;
  return patch;
}
