// The catalogue of connection types (spec/3 §2 Connections): label, family, aliases and form fields; lookup by name.
import type { ConnectionField, ConnectionTypeDef } from './connectionFields.js';

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
