import { describe, expect, it } from 'vitest';
import { auditRuleFor, idsOfQuery, type AuditRequest } from './classify.js';
import { redact } from './record.js';

const ID = '0b9f6a3e-8d6c-4c5e-9a51-1d2f3e4a5b6c';
const req = (over: Partial<AuditRequest>): AuditRequest => ({
  method: 'POST',
  path: '/api/canary',
  query: [],
  body: undefined,
  response: undefined,
  names: new Map(),
  source: undefined,
  ...over,
});
const entriesOf = (r: AuditRequest) => auditRuleFor(r.method, r.path)?.entries(r) ?? [];

describe('audit rules', () => {
  it('records one apply per applied resource, with its kind and source', () => {
    const applied = [
      { id: ID, name: 'web', namespace: 'prod', created: true },
      { id: 'x', name: 'db', namespace: 'prod', created: false },
    ];
    const entries = entriesOf(req({ path: '/api/notification/silence', response: { applied }, source: 'ConfigFile' }));
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'apply',
        resourceType: 'NotificationSilence',
        resourceId: ID,
        resourceName: 'prod/web',
      }),
      expect.objectContaining({
        action: 'apply',
        resourceName: 'prod/db',
        details: { created: false, source: 'ConfigFile' },
      }),
    ]);
    // A POST answering something else (a run, a query) is no apply.
    expect(entriesOf(req({ path: '/api/playbook/run', response: { id: ID } }))).toEqual([]);
  });

  it('names the fields of a /api/db write, never their values, and the ids it targets', () => {
    const [entry] = entriesOf(
      req({
        method: 'PATCH',
        path: '/api/db/connections',
        query: [['id', `eq.${ID}`]],
        body: { password: 'hunter2', username: 'app' },
        names: new Map([[ID, 'main-db']]),
      }),
    );
    expect(entry).toEqual({
      action: 'update',
      resourceType: 'connections',
      resourceId: ID,
      resourceName: 'main-db',
      details: { method: 'PATCH', filters: [`id=eq.${ID}`], fields: ['password', 'username'] },
    });
    expect(JSON.stringify(entry)).not.toContain('hunter2');
    // Filters on other columns keep their names only.
    const [byName] = entriesOf(req({ method: 'DELETE', path: '/api/db/teams', query: [['name', 'eq.secret-team']] }));
    expect(byName!.details).toEqual({ method: 'DELETE', filters: ['name'] });
    expect(auditRuleFor('POST', '/api/db/rpc/related_configs_recursive')).toBeUndefined();
    expect(auditRuleFor('GET', '/api/db/teams')).toBeUndefined();
  });

  it('calls a write to person_roles or a user’s role a role change', () => {
    expect(entriesOf(req({ path: '/api/db/person_roles', body: { person_id: ID, role: 'admin' } }))[0]).toMatchObject({
      action: 'role_change',
      details: { roles: ['admin'] },
    });
    expect(entriesOf(req({ method: 'PATCH', path: `/api/users/${ID}`, body: { role: 'viewer' } }))[0]).toMatchObject({
      action: 'role_change',
      resourceType: 'person',
      resourceId: ID,
      details: { role: 'viewer' },
    });
    expect(entriesOf(req({ method: 'PATCH', path: `/api/users/${ID}`, body: { firstName: 'A' } }))[0]!.action).toBe(
      'update',
    );
  });

  it('records tokens made and revoked, and agents, without their secrets', () => {
    const [made] = entriesOf(
      req({ path: '/api/tokens', body: { name: 'ci' }, response: { id: ID, token: 'opsdeck_secret' } }),
    );
    expect(made).toMatchObject({ action: 'token_create', resourceId: ID, resourceName: 'ci' });
    expect(JSON.stringify(made)).not.toContain('opsdeck_secret');
    expect(entriesOf(req({ method: 'DELETE', path: `/api/tokens/${ID}` }))[0]!.action).toBe('token_revoke');
    expect(entriesOf(req({ method: 'GET', path: '/api/kubeconfig' }))[0]!.action).toBe('token_create');
    expect(
      entriesOf(req({ method: 'DELETE', path: `/api/agent/${ID}`, query: [['cleanup', 'true']] }))[0],
    ).toMatchObject({ action: 'delete', resourceType: 'agent', details: { cleanup: true } });
    expect(entriesOf(req({ method: 'DELETE', path: `/api/canary/${ID}` }))[0]).toMatchObject({
      action: 'delete',
      resourceType: 'Canary',
      resourceId: ID,
    });
  });

  it('reads ids from eq and in filters, ignoring what is not a uuid', () => {
    expect(idsOfQuery([['id', `in.(${ID},"${ID.replace('0b', '1b')}",nope)`]])).toEqual([ID, ID.replace('0b', '1b')]);
    expect(idsOfQuery([['id', 'eq.1; drop table x']])).toEqual([]);
  });

  it('redacts every secret-looking key, however deep', () => {
    expect(
      redact({ name: 'a', password: 'p', nested: [{ api_key: 'k', Authorization: 'Bearer x', ok: 1 }], token_id: 't' }),
    ).toEqual({
      name: 'a',
      password: '[redacted]',
      nested: [{ api_key: '[redacted]', Authorization: '[redacted]', ok: 1 }],
      token_id: '[redacted]',
    });
  });
});
