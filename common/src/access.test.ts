import { describe, expect, it } from 'vitest';
import { checkAccess, isOnlyViewer, type AccessSubject } from './access.js';
import { permissionsFor } from './rbac.js';

const subject = (roles: string[], disabledFeatures: string[] = []): AccessSubject => ({
  roles,
  permissions: permissionsFor(roles),
  disabledFeatures,
});

describe('access to pages and menu items', () => {
  it('allows what the role may read', () => {
    expect(checkAccess({ resource: 'canaries' }, subject(['viewer']))).toBe('allowed');
    expect(checkAccess({ resource: 'identities' }, subject(['admin']))).toBe('allowed');
  });

  it('refuses a resource the role may not read', () => {
    expect(checkAccess({ resource: 'identities' }, subject(['viewer']))).toBe('unauthorized');
    expect(checkAccess({ resource: 'connections' }, subject(['editor']))).toBe('unauthorized');
  });

  it('checks the write action when asked', () => {
    expect(checkAccess({ resource: 'canaries', action: 'write' }, subject(['viewer']))).toBe('unauthorized');
    expect(checkAccess({ resource: 'incident', action: 'write' }, subject(['responder']))).toBe('allowed');
  });

  it('reports a disabled feature before permissions', () => {
    expect(checkAccess({ resource: 'canaries', feature: 'health' }, subject(['admin'], ['health']))).toBe(
      'feature-disabled',
    );
  });

  it('hides viewer-hidden items from viewers and users without roles only', () => {
    expect(checkAccess({ hiddenForViewer: true }, subject(['viewer']))).toBe('unauthorized');
    expect(checkAccess({ hiddenForViewer: true }, subject([]))).toBe('unauthorized');
    expect(checkAccess({ hiddenForViewer: true }, subject(['viewer', 'responder']))).toBe('allowed');
    expect(isOnlyViewer(['unknown-role'])).toBe(true);
  });
});
