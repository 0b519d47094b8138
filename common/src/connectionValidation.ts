// The checks the form and the server share on a connection as written, its defaults, and secret/config-map references.
import { CONNECTION_COLUMNS } from './connectionFields.js';
import { CONNECTION_TYPES, connectionType } from './connectionTypes.js';

/** `secret://name/key` or `configmap://name/key`: an address of a value, stored as it is (not sealed). */
export const SECRET_REF = /^(secret|configmap):\/\/([^/\s]+)\/([^/\s]+)$/;

export function isSecretRef(value: unknown): value is string {
  return typeof value === 'string' && SECRET_REF.test(value);
}

/** A connection as written (the form, /api/db/connections, a Connection resource's spec flattened). */
export interface ConnectionInput {
  name?: unknown;
  namespace?: unknown;
  type?: unknown;
  url?: unknown;
  username?: unknown;
  password?: unknown;
  certificate?: unknown;
  insecure_tls?: unknown;
  properties?: unknown;
  [column: string]: unknown;
}

export interface ConnectionFieldError {
  /** A column or `properties.<key>`. */
  field: string;
  message: string;
}

/** The value a field has in a row: its column, or its property. */
export function fieldValue(row: ConnectionInput, key: string): unknown {
  if ((CONNECTION_COLUMNS as readonly string[]).includes(key)) return row[key];
  const props = row.properties;
  return props && typeof props === 'object' ? (props as Record<string, unknown>)[key] : undefined;
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function checkUrl(value: string, label: string): string | undefined {
  // $(username) / $(password) are substituted at use. common/ has no URL class (no DOM, no Node), so
  // the authority is read with a pattern: scheme://[userinfo@]host[:port][/path][?query].
  const candidate = value.replaceAll('$(username)', 'u').replaceAll('$(password)', 'p').trim();
  const m = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?(\[[0-9a-f:.]+\]|[^:/?#\s]*)(?::([^/?#]*))?([/?#].*)?$/i.exec(
    candidate,
  );
  // The value is echoed without any userinfo: a password typed into the URL never comes back in an answer.
  // (Everything up to the last '@' goes: a password may itself hold '/' or '@'.)
  const shown = value.replace(/^((?:[a-z][a-z0-9+.-]*:\/\/)?)\S*@/i, '$1');
  if (!m) return `${label} must be a URL such as https://host:port (got "${shown}")`;
  // file:///path (a Git repository on the server's disk) is the one URL without a host.
  if (!m[2] && m[1]!.toLowerCase() !== 'file') return `${label} has no host: "${shown}"`;
  const port = m[3];
  if (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535))
    return `${label} has an invalid port: "${port}" (1-65535)`;
  if (/\s/.test(candidate)) return `${label} must not contain spaces: "${shown}"`;
  return undefined;
}

/**
 * Checks a connection as the form and /api/db writes give it. `partial` (an update) checks only the
 * fields present; a secret field left out keeps its stored value. Returns every problem found.
 */
export function validateConnection(row: ConnectionInput, opts: { partial?: boolean } = {}): ConnectionFieldError[] {
  const errors: ConnectionFieldError[] = [];
  const present = (key: string) => !opts.partial || key in row;
  if (present('name') && (typeof row.name !== 'string' || !row.name.trim()))
    errors.push({ field: 'name', message: 'name is required' });
  else if (typeof row.name === 'string' && /[/\s]/.test(row.name.trim()))
    errors.push({ field: 'name', message: 'name must not contain spaces or "/"' });
  if (
    present('namespace') &&
    row.namespace !== undefined &&
    (typeof row.namespace !== 'string' || !row.namespace.trim())
  )
    errors.push({ field: 'namespace', message: 'namespace is required' });
  if (!present('type')) return errors;
  const def = connectionType(typeof row.type === 'string' ? row.type : undefined);
  if (!def) {
    errors.push({
      field: 'type',
      message: isBlank(row.type)
        ? 'type is required'
        : `type "${String(row.type)}" is not a connection type (one of ${CONNECTION_TYPES.map((t) => t.type).join(', ')})`,
    });
    return errors;
  }
  if (
    row.properties !== undefined &&
    row.properties !== null &&
    (typeof row.properties !== 'object' || Array.isArray(row.properties))
  )
    errors.push({ field: 'properties', message: 'properties must be an object of names to values' });
  for (const field of def.fields) {
    const column = (CONNECTION_COLUMNS as readonly string[]).includes(field.key);
    const name = column ? field.key : `properties.${field.key}`;
    const value = fieldValue(row, field.key);
    // On an update a secret left out keeps its stored value; other fields are checked when given.
    if (opts.partial && value === undefined) continue;
    if (isBlank(value)) {
      if (field.required && field.default === undefined)
        errors.push({ field: name, message: `${field.label} is required` });
      continue;
    }
    // Git also takes the scp-like address ssh uses: git@host:team/repo.git.
    const scpLike = def.type === 'git' && typeof value === 'string' && /^[\w.-]+@[\w.-]+:[^\s:][^\s]*$/.test(value);
    if (field.kind === 'url' && typeof value === 'string' && !scpLike) {
      const problem = checkUrl(value, field.label);
      if (problem) errors.push({ field: name, message: problem });
    }
    if (field.kind === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n)) errors.push({ field: name, message: `${field.label} must be a number` });
      else if (/port/i.test(field.key) && (!Number.isInteger(n) || n < 1 || n > 65535))
        errors.push({ field: name, message: `${field.label} must be between 1 and 65535` });
    }
    if (field.kind === 'boolean' && typeof value !== 'boolean' && value !== 'true' && value !== 'false')
      errors.push({ field: name, message: `${field.label} must be true or false` });
    if (field.kind === 'select' && field.options && !field.options.includes(String(value)))
      errors.push({ field: name, message: `${field.label} must be one of ${field.options.join(', ')}` });
    if (typeof value === 'string' && /^(secret|configmap):\/\//.test(value) && !isSecretRef(value))
      errors.push({
        field: name,
        message: `${field.label}: a reference is written secret://<name>/<key> or configmap://<name>/<key>`,
      });
  }
  return errors;
}

/** The row with the type's defaults filled in where the input left a field out (a new connection). */
export function withConnectionDefaults<T extends ConnectionInput>(row: T): T & ConnectionInput {
  const def = connectionType(typeof row.type === 'string' ? row.type : undefined);
  if (!def) return row;
  const out: ConnectionInput = { ...row, namespace: isBlank(row.namespace) ? 'default' : row.namespace };
  const props: Record<string, unknown> = { ...((row.properties as Record<string, unknown> | null) ?? {}) };
  for (const field of def.fields) {
    if (field.default === undefined) continue;
    if ((CONNECTION_COLUMNS as readonly string[]).includes(field.key)) {
      if (isBlank(out[field.key])) out[field.key] = field.default;
    } else if (isBlank(props[field.key])) props[field.key] = String(field.default);
  }
  if (Object.keys(props).length) out.properties = props;
  return out as T;
}
