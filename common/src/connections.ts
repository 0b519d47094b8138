// Connection types (spec/3 §2 Connections, §3 Connection; FORMATS.md Connection): the fields each type's
// form shows, where each field is stored in a `connections` row, defaults, and the validation the form
// and the server share. A field whose key is a column name (url, username, password, certificate,
// insecure_tls) is that column; any other key is `properties.<key>`. Secrets are only ever stored in the
// sealed columns password and certificate, so a type's secret fields use those two keys.

export type ConnectionFamily = 'database' | 'cloud' | 'source-control' | 'notification' | 'other';

export const CONNECTION_FAMILIES: readonly { family: ConnectionFamily; label: string }[] = [
  { family: 'database', label: 'Databases' },
  { family: 'cloud', label: 'Cloud' },
  { family: 'source-control', label: 'Source control' },
  { family: 'notification', label: 'Notification services' },
  { family: 'other', label: 'Other' },
];

export const CONNECTION_COLUMNS = ['url', 'username', 'password', 'certificate', 'insecure_tls'] as const;
/** Columns sealed at rest and never returned by a read API. */
export const SECRET_CONNECTION_COLUMNS = ['password', 'certificate'] as const;

export interface ConnectionField {
  /** A column name (see CONNECTION_COLUMNS) or a property key. */
  key: string;
  label: string;
  /** secret: static text or a secret/config-map reference; only for keys password and certificate. */
  kind: 'text' | 'secret' | 'number' | 'select' | 'boolean' | 'textarea' | 'url';
  required?: boolean;
  default?: string | number | boolean;
  options?: readonly string[];
  placeholder?: string;
  hint?: string;
}

export interface ConnectionTypeDef {
  /** As stored in connections.type (mission-control's names). */
  type: string;
  label: string;
  family: ConnectionFamily;
  fields: readonly ConnectionField[];
  /** Other spellings of the type accepted on write and in `connection://<Type>/<name>`. */
  aliases?: readonly string[];
}

const url = (placeholder: string, required = true, label = 'URL'): ConnectionField => ({
  key: 'url',
  label,
  kind: 'url',
  required,
  placeholder,
});
const username = (required = false, label = 'Username'): ConnectionField => ({
  key: 'username',
  label,
  kind: 'text',
  required,
});
const password = (required = false, label = 'Password'): ConnectionField => ({
  key: 'password',
  label,
  kind: 'secret',
  required,
});
const insecureTls: ConnectionField = { key: 'insecure_tls', label: 'Skip TLS verification', kind: 'boolean' };
const text = (key: string, label: string, extra: Partial<ConnectionField> = {}): ConnectionField => ({
  key,
  label,
  kind: 'text',
  ...extra,
});

export const CONNECTION_TYPES: readonly ConnectionTypeDef[] = [
  // Databases: the URL may use $(username) and $(password).
  {
    type: 'postgres',
    label: 'PostgreSQL',
    family: 'database',
    aliases: ['postgresql'],
    fields: [
      url('postgres://$(username):$(password)@db.internal:5432/postgres?sslmode=disable'),
      username(true),
      password(true),
      insecureTls,
    ],
  },
  {
    type: 'mysql',
    label: 'MySQL / MariaDB',
    family: 'database',
    aliases: ['mariadb'],
    fields: [url('mysql://$(username):$(password)@db.internal:3306/mysql'), username(true), password(true)],
  },
  {
    type: 'sql_server',
    label: 'SQL Server',
    family: 'database',
    aliases: ['mssql', 'sqlserver'],
    fields: [
      url('sqlserver://$(username):$(password)@db.internal:1433?database=master'),
      username(true),
      password(true),
      insecureTls,
    ],
  },
  {
    type: 'mongo',
    label: 'MongoDB',
    family: 'database',
    aliases: ['mongodb'],
    fields: [
      url('mongodb://$(username):$(password)@db.internal:27017/?authSource=admin'),
      username(true),
      password(true),
    ],
  },
  {
    type: 'redis',
    label: 'Redis',
    family: 'database',
    fields: [
      url('redis://cache.internal:6379'),
      username(),
      password(),
      text('db', 'Database', { kind: 'number', default: 0 }),
    ],
  },
  // Cloud.
  {
    type: 'aws',
    label: 'AWS',
    family: 'cloud',
    fields: [
      username(true, 'Access Key'),
      password(true, 'Secret Key'),
      text('region', 'Region', { required: true, placeholder: 'eu-west-1' }),
      url('https://sts.amazonaws.com', false, 'Endpoint'),
      insecureTls,
    ],
  },
  {
    type: 'azure',
    label: 'Azure',
    family: 'cloud',
    fields: [
      username(true, 'Client ID'),
      password(true, 'Client Secret'),
      text('tenant', 'Tenant ID', { required: true }),
      text('subscription', 'Subscription ID'),
    ],
  },
  {
    type: 'gcp',
    label: 'GCP',
    family: 'cloud',
    aliases: ['google_cloud', 'gcs'],
    fields: [
      { key: 'certificate', label: 'Service account credentials (JSON)', kind: 'secret', required: true },
      text('project', 'Project'),
      url('https://storage.googleapis.com', false, 'Endpoint'),
    ],
  },
  {
    type: 's3',
    label: 'S3-compatible storage',
    family: 'cloud',
    fields: [
      text('bucket', 'Bucket', { required: true }),
      username(true, 'Access Key'),
      password(true, 'Secret Key'),
      text('region', 'Region', { default: 'us-east-1' }),
      url('https://s3.amazonaws.com', false, 'Endpoint'),
      text('usePathStyle', 'Path-style addressing', { kind: 'boolean', default: false }),
      insecureTls,
    ],
  },
  // Source control.
  {
    type: 'git',
    label: 'Git',
    family: 'source-control',
    fields: [
      url('https://git.example.com/team/repo.git'),
      username(),
      password(false, 'Password or token'),
      { key: 'certificate', label: 'SSH private key', kind: 'secret' },
      text('ref', 'Ref', { default: 'main' }),
    ],
  },
  {
    type: 'github',
    label: 'GitHub',
    family: 'source-control',
    fields: [password(true, 'Personal access token'), url('https://api.github.com', false)],
  },
  {
    type: 'gitlab',
    label: 'GitLab',
    family: 'source-control',
    fields: [password(true, 'Personal access token'), url('https://gitlab.com', false)],
  },
  // Notification services. Webhook URLs carry their token, so they are kept in the sealed password column.
  {
    type: 'email',
    label: 'Email (SMTP)',
    family: 'notification',
    aliases: ['smtp'],
    fields: [
      text('host', 'Host', { required: true, placeholder: 'smtp.example.com' }),
      text('port', 'Port', { kind: 'number', required: true, default: 587 }),
      username(),
      password(),
      text('from', 'From address', { required: true, placeholder: 'opsdeck@example.com' }),
      text('fromName', 'From name', { required: true, default: 'Opsdeck' }),
      text('encryption', 'Encryption', {
        kind: 'select',
        required: true,
        options: ['Auto', 'None', 'ExplicitTLS', 'ImplicitTLS'],
        default: 'Auto',
      }),
      text('auth', 'Authentication', {
        kind: 'select',
        required: true,
        options: ['Unknown', 'None', 'Plain', 'CRAMMD5', 'Login', 'OAuth2'],
        default: 'Unknown',
      }),
      text('to', 'Default recipients', { placeholder: 'oncall@example.com, sre@example.com' }),
      insecureTls,
    ],
  },
  {
    type: 'slack',
    label: 'Slack',
    family: 'notification',
    fields: [
      password(true, 'Bot token or webhook URL'),
      text('channel', 'Channel', { placeholder: '#alerts (with a bot token)' }),
      url('https://slack.com/api', false, 'API URL'),
    ],
  },
  {
    type: 'teams',
    label: 'Microsoft Teams',
    family: 'notification',
    fields: [password(true, 'Webhook URL')],
  },
  {
    type: 'discord',
    label: 'Discord',
    family: 'notification',
    fields: [username(true, 'Webhook ID'), password(true, 'Token'), url('https://discord.com/api', false, 'API URL')],
  },
  {
    type: 'mattermost',
    label: 'Mattermost',
    family: 'notification',
    fields: [
      url('https://mattermost.example.com'),
      password(true, 'Webhook token'),
      text('channel', 'Channel'),
      text('botName', 'Bot name', { default: 'Opsdeck' }),
    ],
  },
  {
    type: 'googlechat',
    label: 'Google Chat',
    family: 'notification',
    fields: [password(true, 'Webhook URL')],
  },
  {
    type: 'ntfy',
    label: 'ntfy',
    family: 'notification',
    fields: [
      { ...url('https://ntfy.sh', true, 'Host'), default: 'https://ntfy.sh' },
      text('topic', 'Topic', { required: true }),
      username(),
      password(false, 'Password or access token'),
    ],
  },
  {
    type: 'gotify',
    label: 'Gotify',
    family: 'notification',
    fields: [url('https://gotify.example.com', true, 'Host'), password(true, 'Application token')],
  },
  {
    type: 'telegram',
    label: 'Telegram',
    family: 'notification',
    fields: [
      password(true, 'Bot token'),
      text('chats', 'Chat IDs', { required: true, placeholder: '-1001234567890, @channel' }),
      url('https://api.telegram.org', false, 'API URL'),
    ],
  },
  {
    type: 'opsgenie',
    label: 'Opsgenie',
    family: 'notification',
    fields: [
      password(true, 'API key'),
      text('host', 'Host', { default: 'api.opsgenie.com' }),
      text('port', 'Port', { kind: 'number', default: 443 }),
      text('responders', 'Responders', { placeholder: 'team:sre, user:oncall@example.com' }),
    ],
  },
  {
    type: 'pagerduty',
    label: 'PagerDuty',
    family: 'notification',
    fields: [
      password(true, 'Integration (routing) key'),
      text('severity', 'Severity', {
        kind: 'select',
        options: ['critical', 'error', 'warning', 'info'],
        default: 'error',
      }),
      url('https://events.pagerduty.com', false, 'Events API URL'),
    ],
  },
  {
    type: 'generic_webhook',
    label: 'Generic webhook',
    family: 'notification',
    aliases: ['webhook', 'generic'],
    fields: [
      url('https://hooks.example.com/opsdeck'),
      text('method', 'Method', { kind: 'select', options: ['POST', 'PUT', 'PATCH', 'GET'], default: 'POST' }),
      text('contentType', 'Content type', { default: 'application/json' }),
      text('messageKey', 'Message key', { default: 'message' }),
      text('titleKey', 'Title key', { default: 'title' }),
      username(),
      password(false, 'Password or bearer token'),
      insecureTls,
    ],
  },
  // Other.
  {
    type: 'http',
    label: 'HTTP',
    family: 'other',
    fields: [url('https://api.example.com'), username(), password(), insecureTls],
  },
  {
    type: 'sftp',
    label: 'SFTP',
    family: 'other',
    fields: [
      text('host', 'Host', { required: true }),
      text('port', 'Port', { kind: 'number', required: true, default: 22 }),
      username(true),
      password(),
      { key: 'certificate', label: 'SSH private key', kind: 'secret' },
      text('path', 'Path', { default: '/' }),
    ],
  },
  {
    type: 'smb',
    label: 'SMB',
    family: 'other',
    aliases: ['windows'],
    fields: [
      text('host', 'Host', { required: true }),
      text('port', 'Port', { kind: 'number', required: true, default: 445 }),
      text('share', 'Share', { required: true }),
      text('domain', 'Domain'),
      username(true),
      password(true),
    ],
  },
  {
    type: 'kubernetes',
    label: 'Kubernetes',
    family: 'other',
    fields: [{ key: 'certificate', label: 'Kubeconfig', kind: 'secret', required: true }, text('context', 'Context')],
  },
  {
    type: 'prometheus',
    label: 'Prometheus',
    family: 'other',
    fields: [
      url('http://prometheus.monitoring:9090'),
      username(),
      password(false, 'Password or bearer token'),
      insecureTls,
    ],
  },
  {
    type: 'loki',
    label: 'Loki',
    family: 'other',
    fields: [
      url('http://loki.monitoring:3100'),
      username(),
      password(false, 'Password or bearer token'),
      text('tenant', 'Tenant (X-Scope-OrgID)'),
      insecureTls,
    ],
  },
  {
    type: 'opensearch',
    label: 'OpenSearch / Elasticsearch',
    family: 'other',
    aliases: ['elasticsearch'],
    fields: [url('https://search.internal:9200'), username(), password(), text('index', 'Index'), insecureTls],
  },
];

const byType = new Map<string, ConnectionTypeDef>();
for (const def of CONNECTION_TYPES) {
  byType.set(def.type, def);
  for (const alias of def.aliases ?? []) byType.set(alias, def);
}

/** The type's definition by its name or an alias, case-insensitive; undefined when unknown. */
export function connectionType(type: string | null | undefined): ConnectionTypeDef | undefined {
  return type ? byType.get(type.trim().toLowerCase()) : undefined;
}

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

/** The 501 of a connection test for a type without a tester, and what the console shows for it. */
export const CONNECTION_TEST_UNSUPPORTED = 'We currently do not support testing this connection type';

/** What a connection-test answer says (POST /api/connection/test[/{id}]): 200 {message: 'ok'}. */
export interface ConnectionTestResult {
  message: string;
  /** What was done, e.g. "SELECT 1 on db.internal:5432/postgres answered in 12 ms". */
  details?: string;
  duration_ms?: number;
}
