import { describe, expect, it } from 'vitest';
import { can, displayRole, effectiveRoles, permissionsFor } from './rbac.js';
import { RESOURCES } from './resources.js';
import { disabledFeatures } from './features.js';

describe('permission matrix', () => {
  it('lets an admin do everything', () => {
    for (const r of RESOURCES) expect(can(['admin'], r, 'write')).toBe(true);
  });

  it('lets an editor do everything but connections, identities and rbac', () => {
    for (const r of RESOURCES) {
      const allowed = !['connections', 'identities', 'rbac'].includes(r);
      expect(can(['editor'], r, 'read')).toBe(allowed);
      expect(can(['editor'], r, 'write')).toBe(allowed);
    }
  });

  it.each(['commander', 'responder'])('lets a %s read all but the admin set and write only incident work', (role) => {
    for (const r of RESOURCES) {
      const readable = !['connections', 'identities', 'rbac'].includes(r);
      expect(can([role], r, 'read')).toBe(readable);
      expect(can([role], r, 'write')).toBe(['responder', 'incident', 'evidences', 'comments'].includes(r));
    }
  });

  it('lets a viewer read what a responder reads and write nothing', () => {
    for (const r of RESOURCES) {
      expect(can(['viewer'], r, 'read')).toBe(can(['responder'], r, 'read'));
      expect(can(['viewer'], r, 'write')).toBe(false);
    }
  });

  it('treats no role, or only unknown roles, as viewer and unions several roles', () => {
    expect(effectiveRoles([])).toEqual(['viewer']);
    expect(effectiveRoles(null)).toEqual(['viewer']);
    expect(effectiveRoles(['superuser'])).toEqual(['viewer']);
    expect(can(['viewer', 'responder'], 'comments', 'write')).toBe(true);
    expect(permissionsFor(undefined).incident).toEqual({ read: true, write: false });
  });

  it('shows the highest of admin, editor and viewer on the edit form', () => {
    expect(displayRole(['responder', 'editor'])).toBe('editor');
    expect(displayRole(['commander'])).toBe('viewer');
    expect(displayRole(['admin', 'viewer'])).toBe('admin');
  });
});

describe('feature flags', () => {
  it('disables a feature with {feature}.disable = true only', () => {
    expect([...disabledFeatures([{ name: 'incidents.disable', value: 'true' }])]).toEqual([
      'incidents',
      'settings.incident_rules',
    ]);
    expect(disabledFeatures([{ name: 'incidents.disable', value: 'false' }]).size).toBe(0);
    expect(disabledFeatures([{ name: 'nonsense.disable', value: 'true' }]).size).toBe(0);
    expect(disabledFeatures([{ name: 'incidents', value: 'true' }]).size).toBe(0);
  });

  it('disables children with their parent', () => {
    const off = disabledFeatures([{ name: 'health.disable', value: 'TRUE' }]);
    expect(off.has('settings.health')).toBe(true);
    expect(off.has('settings.job_history')).toBe(true);
    const cfg = disabledFeatures([{ name: 'config.disable', value: 'true' }]);
    expect(cfg.has('settings.config_scraper')).toBe(true);
    expect(disabledFeatures([{ name: 'settings.topology.disable', value: 'true' }]).has('topology')).toBe(false);
  });
});

import { inviteUserSchema, splitName } from './users.js';

describe('invite user form', () => {
  const valid = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', role: 'editor' };
  const message = (input: unknown) => {
    const r = inviteUserSchema.safeParse(input);
    return r.success ? null : r.error.issues.map((i) => i.message);
  };

  it('accepts a complete invite', () => {
    expect(message(valid)).toBeNull();
  });

  it('uses the exact messages of the spec', () => {
    expect(message({ ...valid, firstName: '  ' })).toEqual(['Please provide valid first name']);
    expect(message({ ...valid, lastName: undefined })).toEqual(['Please provide valid last name']);
    expect(message({ ...valid, email: '' })).toEqual([
      'Please provide valid email',
      'Entered value does not match email format',
    ]);
    expect(message({ ...valid, email: 'ada@example' })).toEqual(['Entered value does not match email format']);
    expect(message({ ...valid, role: '' })).toEqual(['Please select any role']);
    expect(message({ ...valid, role: 'owner' })).toEqual(['Please select any role']);
  });

  it('splits a stored name into first and last', () => {
    expect(splitName('Ada King Lovelace')).toEqual({ first: 'Ada', last: 'King Lovelace' });
    expect(splitName('Cher')).toEqual({ first: 'Cher', last: '' });
  });
});
