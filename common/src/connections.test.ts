// The connection type table: every type's fields are well formed, validation names the wrong field,
// defaults fill what a new connection left out, and references are told apart from secrets.
import { describe, expect, it } from 'vitest';
import {
  CONNECTION_COLUMNS,
  CONNECTION_TYPES,
  connectionType,
  fieldValue,
  isSecretRef,
  validateConnection,
  withConnectionDefaults,
} from './connections.js';

const pg = {
  name: 'orders-db',
  type: 'postgres',
  url: 'postgres://$(username):$(password)@db:5432/orders',
  username: 'app',
  password: 's3cret',
};

describe('connection types', () => {
  it('keeps secrets only in the sealed columns and names each type once', () => {
    const seen = new Set<string>();
    for (const def of CONNECTION_TYPES) {
      for (const name of [def.type, ...(def.aliases ?? [])]) {
        expect(seen.has(name), `${name} named twice`).toBe(false);
        seen.add(name);
      }
      for (const f of def.fields) {
        if (f.kind === 'secret') expect(['password', 'certificate']).toContain(f.key);
        if (f.options && f.default !== undefined) expect(f.options).toContain(f.default);
      }
    }
  });

  it('finds a type by an alias, case-insensitively', () => {
    expect(connectionType('PostgreSQL')?.type).toBe('postgres');
    expect(connectionType(' mariadb ')?.type).toBe('mysql');
    expect(connectionType('smtp')?.type).toBe('email');
    expect(connectionType('nope')).toBeUndefined();
    expect(connectionType(undefined)).toBeUndefined();
  });

  it('reads a field from its column or from properties', () => {
    const row = { url: 'http://x', properties: { bucket: 'b' } };
    expect(fieldValue(row, 'url')).toBe('http://x');
    expect(fieldValue(row, 'bucket')).toBe('b');
    expect(fieldValue({}, 'bucket')).toBeUndefined();
    expect(CONNECTION_COLUMNS).toContain('insecure_tls');
  });
});

describe('validateConnection', () => {
  it('accepts a complete connection', () => {
    expect(validateConnection(pg)).toEqual([]);
  });

  it('names each missing or wrong field', () => {
    expect(validateConnection({ type: 'postgres' })).toEqual([
      { field: 'name', message: 'name is required' },
      { field: 'url', message: 'URL is required' },
      { field: 'username', message: 'Username is required' },
      { field: 'password', message: 'Password is required' },
    ]);
    expect(validateConnection({ name: 'a b', type: 'http', url: 'http://x' })).toEqual([
      { field: 'name', message: 'name must not contain spaces or "/"' },
    ]);
    expect(validateConnection({ ...pg, type: 'oracle' })[0]).toMatchObject({
      field: 'type',
      message: expect.stringMatching(/^type "oracle" is not a connection type \(one of postgres, mysql/),
    });
    expect(validateConnection({ name: 'x' })).toEqual([{ field: 'type', message: 'type is required' }]);
  });

  it('checks URLs, ports, numbers, selects and booleans', () => {
    expect(validateConnection({ ...pg, url: 'db:5432' })).toEqual([
      { field: 'url', message: 'URL must be a URL such as https://host:port (got "db:5432")' },
    ]);
    expect(validateConnection({ ...pg, url: 'postgres://db:99999/x' })[0]?.message).toBe(
      'URL has an invalid port: "99999" (1-65535)',
    );
    expect(validateConnection({ ...pg, url: 'postgres:///x' })[0]?.message).toBe('URL has no host: "postgres:///x"');
    // A password typed into a bad URL is not echoed back.
    const echoed = validateConnection({ ...pg, url: 'postgres://app:p@ss/w0rd@db:5432 x' })[0]?.message;
    expect(echoed).toBe('URL must not contain spaces: "postgres://db:5432 x"');
    expect(validateConnection({ ...pg, url: 'app:hunter2@db' })[0]?.message).not.toContain('hunter2');
    const email = {
      name: 'mail',
      type: 'email',
      properties: { host: 'smtp.x', port: '70000', from: 'a@x', encryption: 'SSL' },
    };
    expect(validateConnection(email)).toEqual([
      { field: 'properties.port', message: 'Port must be between 1 and 65535' },
      { field: 'properties.encryption', message: 'Encryption must be one of Auto, None, ExplicitTLS, ImplicitTLS' },
    ]);
    expect(validateConnection({ ...pg, insecure_tls: 'yes' })).toEqual([
      { field: 'insecure_tls', message: 'Skip TLS verification must be true or false' },
    ]);
    expect(validateConnection({ name: 'r', type: 'redis', url: 'redis://c:6379', properties: { db: 'x' } })).toEqual([
      { field: 'properties.db', message: 'Database must be a number' },
    ]);
    expect(validateConnection({ name: 's', type: 's3', username: 'k', password: 'p' })).toEqual([
      { field: 'properties.bucket', message: 'Bucket is required' },
    ]);
    expect(validateConnection({ name: 's', type: 's3', username: 'k', password: 'p', properties: [] })).toContainEqual({
      field: 'properties',
      message: 'properties must be an object of names to values',
    });
  });

  it('takes file:// and scp-like addresses for Git only where they make sense', () => {
    const git = { name: 'repo', type: 'git' };
    expect(validateConnection({ ...git, url: 'file:///srv/repo.git' })).toEqual([]);
    expect(validateConnection({ ...git, url: 'git@github.com:team/repo.git' })).toEqual([]);
    expect(validateConnection({ ...git, url: 'github.com' })[0]?.field).toBe('url');
    expect(validateConnection({ ...pg, url: 'git@github.com:team/repo.git' })[0]?.field).toBe('url');
  });

  it('takes secret references written as secret:// or configmap:// only', () => {
    expect(validateConnection({ ...pg, password: 'secret://db-creds/password' })).toEqual([]);
    expect(validateConnection({ ...pg, password: 'secret://db-creds' })).toEqual([
      {
        field: 'password',
        message: 'Password: a reference is written secret://<name>/<key> or configmap://<name>/<key>',
      },
    ]);
    expect(isSecretRef('configmap://cm/key')).toBe(true);
    expect(isSecretRef('secret://a/b/c')).toBe(false);
    expect(isSecretRef('hunter2')).toBe(false);
    expect(isSecretRef(undefined)).toBe(false);
  });

  it('checks only the fields an update gives', () => {
    expect(validateConnection({ url: 'nope' }, { partial: true })).toEqual([]);
    expect(validateConnection({ type: 'postgres', url: 'nope' }, { partial: true })).toEqual([
      { field: 'url', message: 'URL must be a URL such as https://host:port (got "nope")' },
    ]);
    expect(validateConnection({ type: 'postgres', username: 'x' }, { partial: true })).toEqual([]);
    expect(validateConnection({ name: '' }, { partial: true })).toEqual([
      { field: 'name', message: 'name is required' },
    ]);
    expect(validateConnection({ namespace: null }, { partial: true })).toEqual([
      { field: 'namespace', message: 'namespace is required' },
    ]);
  });

  it('does not ask for a field that has a default', () => {
    const email = { name: 'mail', type: 'smtp', properties: { host: 'smtp.x', from: 'a@x' } };
    expect(validateConnection(email)).toEqual([]);
  });
});

describe('withConnectionDefaults', () => {
  it('fills the namespace and the type defaults as text', () => {
    expect(withConnectionDefaults({ name: 'mail', type: 'email', properties: { host: 'h', from: 'a@x' } })).toEqual({
      name: 'mail',
      type: 'email',
      namespace: 'default',
      properties: { host: 'h', from: 'a@x', port: '587', fromName: 'Opsdeck', encryption: 'Auto', auth: 'Unknown' },
    });
    expect(withConnectionDefaults({ name: 'f', type: 'sftp', properties: { port: '2222' } }).properties).toEqual({
      port: '2222',
      path: '/',
    });
    expect(withConnectionDefaults({ name: 'o', type: 'opsgenie' }).properties).toEqual({
      host: 'api.opsgenie.com',
      port: '443',
    });
    expect(withConnectionDefaults({ name: 'g', type: 'git', namespace: 'ops' })).toMatchObject({
      namespace: 'ops',
      properties: { ref: 'main' },
    });
    expect(withConnectionDefaults({ name: 'w', type: 'generic_webhook' }).properties).toEqual({
      method: 'POST',
      contentType: 'application/json',
      messageKey: 'message',
      titleKey: 'title',
    });
  });

  it('points ntfy at the public host unless told otherwise', () => {
    expect(withConnectionDefaults({ name: 'n', type: 'ntfy', properties: { topic: 'ops' } }).url).toBe(
      'https://ntfy.sh',
    );
    expect(validateConnection({ name: 'n', type: 'ntfy', properties: { topic: 'ops' } })).toEqual([]);
  });

  it('leaves an unknown type alone', () => {
    const row = { name: 'x', type: 'nope' };
    expect(withConnectionDefaults(row)).toBe(row);
  });
});
