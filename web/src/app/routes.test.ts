import { describe, expect, it } from 'vitest';
import { checkAccess, type AccessSubject } from '@opsdeck/common/access';
import { disabledFeatures } from '@opsdeck/common/features';
import { permissionsFor } from '@opsdeck/common/rbac';
import { LANDING_PATH, navigationFor, ROUTES } from './routes';

const subject = (roles: string[], properties: Array<{ name: string; value: string }> = []): AccessSubject => ({
  roles,
  permissions: permissionsFor(roles),
  disabledFeatures: [...disabledFeatures(properties)],
});
const labels = (items: Array<{ label: string }>) => items.map((i) => i.label);
const route = (path: string) => ROUTES.find((r) => r.path === path)!;

describe('route table', () => {
  it('has one entry per path, each page loaded lazily', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const r of ROUTES) expect(typeof r.load).toBe('function');
  });

  it('lands on /topology', () => {
    expect(LANDING_PATH).toBe('/topology');
    expect(route(LANDING_PATH).nav?.label).toBe('Dashboard');
  });

  it('guards every signed-in page with a resource, except the user’s own profile', () => {
    for (const r of ROUTES.filter((x) => x.layout === 'shell')) {
      if (r.path === '/profile-settings') expect(r.access).toBeUndefined();
      else expect(r.access?.resource, r.path).toBeDefined();
    }
  });

  it('needs no session for the identity and error pages', () => {
    const open = ROUTES.filter((r) => r.layout === 'public').map((r) => r.path);
    expect(open).toEqual(['/login', '/registration', '/recovery', '/verification', '/error', '/bad-session']);
  });

  it('keeps a viewer out of Users and Connections but lets them read feature flags', () => {
    const viewer = subject(['viewer']);
    expect(checkAccess(route('/settings/users').access!, viewer)).toBe('unauthorized');
    expect(checkAccess(route('/settings/connections').access!, viewer)).toBe('unauthorized');
    expect(checkAccess(route('/settings/feature-flags').access!, viewer)).toBe('allowed');
    expect(checkAccess(route('/settings/users').access!, subject(['admin']))).toBe('allowed');
  });

  it('reports a disabled feature on its pages, children included', () => {
    const logsOff = subject(['admin'], [{ name: 'logs.disable', value: 'true' }]);
    expect(checkAccess(route('/logs').access!, logsOff)).toBe('feature-disabled');
    expect(checkAccess(route('/settings/logging_backends').access!, logsOff)).toBe('feature-disabled');
    expect(checkAccess(route('/health').access!, logsOff)).toBe('allowed');
  });
});

describe('sidebar', () => {
  it('shows Dashboard, Health, Incidents, Catalog, Logs and Playbooks in that order', () => {
    expect(labels(navigationFor(subject(['admin'])).main)).toEqual([
      'Dashboard',
      'Health',
      'Incidents',
      'Catalog',
      'Logs',
      'Playbooks',
    ]);
  });

  it('hides the Settings menu from viewers and users without a role', () => {
    expect(navigationFor(subject(['viewer'])).settings).toEqual([]);
    expect(navigationFor(subject([])).settings).toEqual([]);
    expect(labels(navigationFor(subject(['viewer'])).main)).toHaveLength(6);
  });

  it('sorts the Settings entries by name and filters them by permission', () => {
    const admin = labels(navigationFor(subject(['admin'])).settings);
    expect(admin).toEqual([...admin].sort((a, b) => a.localeCompare(b)));
    expect(admin).toEqual(
      expect.arrayContaining([
        'Agents',
        'Connections',
        'Event Queue',
        'Feature Flags',
        'Integrations',
        'Jobs History',
        'Log Backends',
        'Users',
      ]),
    );
    const editor = labels(navigationFor(subject(['editor'])).settings);
    expect(editor).not.toContain('Users');
    expect(editor).not.toContain('Connections');
    expect(editor).toContain('Feature Flags');
  });

  it('hides items whose feature is off, and their children', () => {
    const nav = navigationFor(
      subject(
        ['admin'],
        [
          { name: 'logs.disable', value: 'true' },
          { name: 'health.disable', value: 'true' },
        ],
      ),
    );
    expect(labels(nav.main)).toEqual(['Dashboard', 'Incidents', 'Catalog', 'Playbooks']);
    expect(labels(nav.settings)).not.toContain('Log Backends');
    expect(labels(nav.settings)).not.toContain('Jobs History');
    expect(labels(nav.settings)).not.toContain('Health Checks');
  });
});

describe('health routes', () => {
  it('guards /health with read on canaries and the health feature, loaded lazily', () => {
    const health = route('/health');
    expect(health.access).toEqual({ resource: 'canaries', feature: 'health' });
    expect(health.props).toBeUndefined();
    expect(checkAccess(health.access!, subject(['viewer']))).toBe('allowed');
  });

  it('offers the audit log to admins only', () => {
    expect(route('/settings/audit').access).toEqual({ resource: 'rbac' });
    expect(labels(navigationFor(subject(['admin'])).settings)).toContain('Audit Log');
    expect(labels(navigationFor(subject(['editor'])).settings)).not.toContain('Audit Log');
    expect(checkAccess(route('/settings/audit').access!, subject(['editor']))).toBe('unauthorized');
  });

  it('lists and edits health checks under Settings, for those who may read canaries', () => {
    for (const path of ['/settings/canaries', '/settings/canaries/:id']) {
      expect(route(path).access).toEqual({ resource: 'canaries', action: 'read', feature: 'settings.health' });
    }
    expect(labels(navigationFor(subject(['editor'])).settings)).toContain('Health Checks');
    const healthOff = subject(['admin'], [{ name: 'health.disable', value: 'true' }]);
    expect(checkAccess(route('/settings/canaries').access!, healthOff)).toBe('feature-disabled');
  });
});
