// The model of a connection type's form: the families, the columns of a `connections` row, and a field.
// A field whose key is a column name (url, username, password, certificate, insecure_tls) is that column;
// any other key is `properties.<key>`. Secrets are only ever stored in the sealed columns password and
// certificate, so a type's secret fields use those two keys.

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
