// The connection form ↔ a connections row: defaults, columns and properties, secret modes, the
// messages of the shared validation on the form's fields, and updates that send only what changed.
import { describe, expect, it } from 'vitest';
import {
  connectionPatch,
  formDefaults,
  formPath,
  formToWrite,
  rowToForm,
  validateForm,
  type ConnectionFormValues,
} from './connectionForm';
import type { ConnectionRow } from './connectionsApi';
import { decodeSecretRef, encodeSecret } from './secretValue';

/** A stored row as /api/db/connections returns it (no secrets, only whether they are set). */
function storedRow(overrides: Partial<ConnectionRow> = {}): ConnectionRow {
  return {
    id: '11111111-1111-1111-1111-111111111111',
    name: 'orders-db',
    namespace: 'default',
    type: 'postgres',
    url: 'postgres://$(username):$(password)@db:5432/orders',
    username: 'postgres',
    insecure_tls: false,
    properties: null,
    source: 'UI',
    has_password: true,
    has_certificate: false,
    password_ref: null,
    certificate_ref: null,
    created_by: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

const withFields = (values: ConnectionFormValues, fields: Record<string, string | boolean>): ConnectionFormValues => ({
  ...values,
  fields: { ...values.fields, ...fields },
});

describe('a new connection', () => {
  it("starts in namespace 'default' with the type's defaults from spec/3 §2", () => {
    const email = formDefaults('email');
    expect(email.namespace).toBe('default');
    expect(email.fields).toMatchObject({ port: '587', encryption: 'Auto', auth: 'Unknown' });
    expect(formDefaults('sftp').fields.port).toBe('22');
    expect(formDefaults('smb').fields.port).toBe('445');
    expect(formDefaults('opsgenie').fields).toMatchObject({ host: 'api.opsgenie.com', port: '443' });
    expect(formDefaults('generic_webhook').fields).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      messageKey: 'message',
      titleKey: 'title',
    });
    expect(formDefaults('git').fields.ref).toBe('main');
    expect(formDefaults('ntfy').fields.url).toBe('https://ntfy.sh');
    expect(formDefaults('postgres').secretModes).toEqual({ password: 'static' });
  });

  it('writes columns as columns and every other field as a text property', () => {
    const values = withFields(
      { ...formDefaults('email'), name: ' mailer ' },
      { host: 'smtp.example.com', from: 'ops@example.com', username: 'ops', password: 's3cret', insecure_tls: true },
    );
    expect(formToWrite(values)).toEqual({
      name: 'mailer',
      namespace: 'default',
      type: 'email',
      username: 'ops',
      password: 's3cret',
      insecure_tls: true,
      properties: {
        host: 'smtp.example.com',
        port: '587',
        from: 'ops@example.com',
        fromName: 'Opsdeck',
        encryption: 'Auto',
        auth: 'Unknown',
      },
    });
  });

  it('stores a reference as secret://name/key or configmap://name/key', () => {
    expect(encodeSecret('secret', ' db-creds/password ')).toBe('secret://db-creds/password');
    expect(encodeSecret('configmap', 'settings/token')).toBe('configmap://settings/token');
    expect(encodeSecret('static', ' spaced ')).toBe(' spaced ');
    expect(encodeSecret('secret', '  ')).toBe('');
    expect(decodeSecretRef('configmap://settings/token')).toEqual({ mode: 'configmap', address: 'settings/token' });
    expect(decodeSecretRef(null)).toBeUndefined();

    const values = { ...formDefaults('postgres'), secretModes: { password: 'secret' as const } };
    expect(formToWrite(withFields(values, { password: 'db-creds/password' })).password).toBe(
      'secret://db-creds/password',
    );
  });
});

describe('validation', () => {
  it("puts the server's messages under the form's fields", () => {
    const values = withFields({ ...formDefaults('postgres'), namespace: ' ' }, { url: 'not a url' });
    expect(validateForm(values)).toEqual([
      { path: 'name', message: 'name is required' },
      { path: 'namespace', message: 'namespace is required' },
      { path: 'fields.url', message: 'URL must be a URL such as https://host:port (got "not a url")' },
      { path: 'fields.username', message: 'Username is required' },
      { path: 'fields.password', message: 'Password is required' },
    ]);
    const smtp = withFields({ ...formDefaults('email'), name: 'm' }, { host: 'h', from: 'f', port: '70000' });
    expect(validateForm(smtp)).toEqual([{ path: 'fields.port', message: 'Port must be between 1 and 65535' }]);
  });

  it('refuses a reference that is not name/key', () => {
    const values = withFields(
      { ...formDefaults('postgres'), name: 'db', secretModes: { password: 'secret' } },
      { url: 'postgres://db:5432/x', username: 'u', password: 'just-a-name' },
    );
    expect(validateForm(values)).toEqual([
      {
        path: 'fields.password',
        message: 'Password: a reference is written secret://<name>/<key> or configmap://<name>/<key>',
      },
    ]);
  });

  it('accepts an edit that leaves a required stored password empty', () => {
    const row = storedRow();
    expect(validateForm(rowToForm(row), { password: { set: true } })).toEqual([]);
    expect(validateForm(rowToForm({ ...row, has_password: false }), { password: { set: false } })).toEqual([
      { path: 'fields.password', message: 'Password is required' },
    ]);
  });

  it('maps server field names to form paths', () => {
    expect(formPath('name')).toBe('name');
    expect(formPath('url')).toBe('fields.url');
    expect(formPath('properties.port')).toBe('fields.port');
  });
});

describe('editing a stored connection', () => {
  it('shows a static secret as empty and a reference as its address', () => {
    expect(rowToForm(storedRow())).toMatchObject({
      fields: { password: '', username: 'postgres', insecure_tls: false },
      secretModes: { password: 'static' },
    });
    expect(rowToForm(storedRow({ password_ref: 'configmap://pg/password' }))).toMatchObject({
      fields: { password: 'pg/password' },
      secretModes: { password: 'configmap' },
    });
    const smtp = rowToForm(
      storedRow({ type: 'smtp', properties: { host: 'mx', port: 25 as unknown as string, from: 'a@b.c' } }),
    );
    expect(smtp.type).toBe('email');
    expect(smtp.fields).toMatchObject({ host: 'mx', port: '25', from: 'a@b.c', encryption: '' });
  });

  it('sends nothing when nothing changed, and never a password that was not retyped', () => {
    const row = storedRow();
    expect(connectionPatch(row, rowToForm(row))).toEqual({});
    expect(connectionPatch(row, { ...rowToForm(row), name: 'orders' })).toEqual({ name: 'orders' });
    expect(connectionPatch(row, withFields(rowToForm(row), { password: 'new' }))).toEqual({ password: 'new' });
  });

  it('keeps a stored reference unless another one is typed', () => {
    const row = storedRow({ password_ref: 'secret://pg/password' });
    expect(connectionPatch(row, rowToForm(row))).toEqual({});
    expect(connectionPatch(row, withFields(rowToForm(row), { password: 'pg/other' }))).toEqual({
      password: 'secret://pg/other',
    });
    // Switching to static text and typing nothing keeps the reference.
    const switched = { ...rowToForm(row), secretModes: { password: 'static' as const } };
    expect(connectionPatch(row, withFields(switched, { password: '' }))).toEqual({});
  });

  it('clears a blanked column with null', () => {
    const row = storedRow({ type: 'http', url: 'https://api', username: 'bot' });
    expect(connectionPatch(row, withFields(rowToForm(row), { username: '' }))).toEqual({ username: null });
  });

  it('sends the whole properties map when one property changed, keeping keys the form does not show', () => {
    const row = storedRow({
      type: 'email',
      url: null,
      username: null,
      properties: {
        host: 'mx',
        port: '587',
        from: 'a@b.c',
        fromName: 'Ops',
        encryption: 'Auto',
        auth: 'Plain',
        x: '1',
      },
    });
    expect(connectionPatch(row, rowToForm(row))).toEqual({});
    expect(connectionPatch(row, withFields(rowToForm(row), { port: '465', fromName: '' }))).toEqual({
      properties: { host: 'mx', port: '465', from: 'a@b.c', encryption: 'Auto', auth: 'Plain', x: '1' },
    });
  });

  it('tests an edit with the stored secrets left out', () => {
    const row = storedRow();
    const body = formToWrite(rowToForm(row), { password: { set: true } });
    expect(body).not.toHaveProperty('password');
    expect(body).toMatchObject({ name: 'orders-db', url: row.url, username: 'postgres' });
  });
});
