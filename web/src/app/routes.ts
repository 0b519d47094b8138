// The route table: every page of the console in one array (path, lazily loaded page, required
// resource and action, feature flag, sidebar entry). The router, the sidebar and the route guards
// are generated from it (see router.tsx, layout/Sidebar.tsx).
import type { ComponentType } from 'react';
import {
  Activity,
  AlertTriangle,
  Bot,
  Building2,
  Cable,
  Flag,
  Globe,
  History,
  LayoutDashboard,
  ListTree,
  type LucideIcon,
  Logs,
  Puzzle,
  ScrollText,
  ShieldCheck,
  Settings,
  Users,
  Workflow,
  Wrench,
} from 'lucide-react';
import { checkAccess, type AccessRequirement, type AccessSubject } from '@opsdeck/common/access';
import { featureAbsent, type Mode } from '@opsdeck/common/modes';
import { SETTINGS_RESOURCE_KINDS } from '../features/settings/resources/kinds';
import { prefetchSummary } from '../features/health/summaryPrefetch';

// Page components take their own props (e.g. a settings kind); the table passes them through.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PageModule = { default: ComponentType<any> };

export interface NavEntry {
  /** 'main': a top-level sidebar item; 'settings': an entry of the Settings group. */
  group: 'main' | 'settings';
  label: string;
  icon: LucideIcon;
}

export interface AppRoute {
  path: string;
  /** The header title. */
  title: string;
  load: () => Promise<PageModule>;
  /** Props for the page component. */
  props?: Record<string, unknown>;
  /** Checked by the route guard and the sidebar; none means any signed-in user. */
  access?: AccessRequirement;
  /** 'shell': signed in, inside header and sidebar. 'public': identity and error pages. */
  layout: 'shell' | 'public';
  nav?: NavEntry;
}

export const LANDING_PATH = '/topology';

/** The Settings sidebar group: hidden for viewers (spec/1 §6). */
export const SETTINGS_GROUP: { label: string; icon: LucideIcon; access: AccessRequirement } = {
  label: 'Settings',
  icon: Settings,
  access: { hiddenForViewer: true },
};

const settingsResourceRoutes: AppRoute[] = SETTINGS_RESOURCE_KINDS.flatMap((kind) => [
  {
    path: `/settings/${kind.table}`,
    title: kind.title,
    load: () => import('../features/settings/resources/SettingsResourceListPage'),
    props: { table: kind.table },
    access: { resource: kind.resource, action: 'read', feature: kind.feature },
    layout: 'shell' as const,
    nav: { group: 'settings' as const, label: kind.title, icon: Building2 },
  },
  {
    path: `/settings/${kind.table}/:id`,
    title: kind.title,
    load: () => import('../features/settings/resources/SettingsResourceEditPage'),
    props: { table: kind.table },
    access: { resource: kind.resource, action: 'read', feature: kind.feature },
    layout: 'shell' as const,
  },
]);

// The catalog's pages besides /catalog itself (spec/2 §2.1–§2.5).
const catalogAccess: AccessRequirement = { resource: 'config_scrapers', action: 'read', feature: 'config' };
const configDetail = () => import('../features/catalog/ConfigDetailPage');
const catalogRoutes: AppRoute[] = [
  {
    path: '/configs',
    title: 'Catalog',
    load: () => import('../features/catalog/ConfigsRedirect'),
    access: catalogAccess,
    layout: 'shell',
  },
  {
    path: '/catalog/changes',
    title: 'Catalog Changes',
    load: () => import('../features/catalog/ChangesPage'),
    access: catalogAccess,
    layout: 'shell',
  },
  {
    path: '/catalog/insights',
    title: 'Catalog Insights',
    load: () => import('../features/catalog/InsightsPage'),
    access: catalogAccess,
    layout: 'shell',
  },
  {
    path: '/catalog/scrapers',
    title: 'Catalog Scrapers',
    load: () => import('../features/catalog/ScrapersPage'),
    access: catalogAccess,
    layout: 'shell',
  },
  {
    path: '/catalog/scrapers/:id',
    title: 'Catalog Scraper',
    load: () => import('../features/catalog/ScraperDetailPage'),
    access: catalogAccess,
    layout: 'shell',
  },
  ...(['config', 'changes', 'insights', 'relationships', 'playbooks', 'checks'] as const).map((tab) => ({
    path: tab === 'config' ? '/catalog/:id' : `/catalog/:id/${tab}`,
    title: 'Catalog',
    load: configDetail,
    props: { tab },
    access: catalogAccess,
    layout: 'shell' as const,
  })),
];

// Notifications (spec/3 §2): send history, rules, silences; the header's bell opens the first.
const notificationsAccess: AccessRequirement = { resource: 'notifications', feature: 'settings.notifications' };
const notificationRoutes: AppRoute[] = [
  {
    path: '/notifications',
    title: 'Notifications',
    load: () => import('../features/notifications/history/SendHistoryPage'),
    access: notificationsAccess,
    layout: 'shell',
  },
  {
    path: '/notifications/rules',
    title: 'Notifications',
    load: () => import('../features/notifications/rules/RulesPage'),
    access: notificationsAccess,
    layout: 'shell',
  },
  {
    path: '/notifications/silences',
    title: 'Notifications',
    load: () => import('../features/notifications/silences/SilencesPage'),
    access: notificationsAccess,
    layout: 'shell',
  },
  {
    path: '/notifications/silences/add',
    title: 'Add Silence',
    load: () => import('../features/notifications/silences/AddSilencePage'),
    access: notificationsAccess,
    layout: 'shell',
  },
];

export const ROUTES: AppRoute[] = [
  // Main areas (the sidebar, in its order). Their pages arrive with later issues.
  {
    path: '/topology',
    title: 'Dashboard',
    load: () => import('../features/topology/TopologyPage'),
    access: { resource: 'topologies', feature: 'topology' },
    layout: 'shell',
    nav: { group: 'main', label: 'Dashboard', icon: LayoutDashboard },
  },
  {
    path: '/topology/:id',
    title: 'Dashboard',
    load: () => import('../features/topology/TopologyPage'),
    access: { resource: 'topologies', feature: 'topology' },
    layout: 'shell',
  },
  // A read-only card for embedding: signed in and guarded like /topology; the page covers the shell.
  {
    path: '/view/topology/:id',
    title: 'Dashboard',
    load: () => import('../features/topology/ViewTopologyPage'),
    access: { resource: 'topologies', feature: 'topology' },
    layout: 'shell',
  },
  {
    path: '/health',
    title: 'Health',
    // The summary is asked for while the page's chunks and the session load (summaryPrefetch.ts).
    load: () => {
      prefetchSummary();
      return import('../features/health/HealthPage');
    },
    access: { resource: 'canaries', feature: 'health' },
    layout: 'shell',
    nav: { group: 'main', label: 'Health', icon: Activity },
  },
  {
    path: '/incidents',
    title: 'Incidents',
    load: () => import('../features/incidents/IncidentListPage'),
    access: { resource: 'incident', feature: 'incidents' },
    layout: 'shell',
    nav: { group: 'main', label: 'Incidents', icon: AlertTriangle },
  },
  {
    path: '/incidents/:id',
    title: 'Incident',
    load: () => import('../features/incidents/IncidentDetailPage'),
    access: { resource: 'incident', feature: 'incidents' },
    layout: 'shell',
  },
  {
    path: '/catalog',
    title: 'Catalog',
    load: () => import('../features/catalog/CatalogPage'),
    access: { resource: 'config_scrapers', feature: 'config' },
    layout: 'shell',
    nav: { group: 'main', label: 'Catalog', icon: ListTree },
  },
  ...catalogRoutes,
  {
    path: '/logs',
    title: 'Logs',
    load: () => import('../features/logs/LogsPage'),
    access: { resource: 'logging_backends', feature: 'logs' },
    layout: 'shell',
    nav: { group: 'main', label: 'Logs', icon: Logs },
  },
  {
    path: '/playbooks',
    title: 'Playbooks',
    load: () => import('../features/playbooks/PlaybooksPage'),
    access: { resource: 'playbooks', feature: 'playbooks' },
    layout: 'shell',
    nav: { group: 'main', label: 'Playbooks', icon: Workflow },
  },
  {
    path: '/playbooks/runs',
    title: 'Playbook Runs',
    load: () => import('../features/playbooks/PlaybookRunsPage'),
    access: { resource: 'playbook_runs', feature: 'playbooks' },
    layout: 'shell',
  },
  {
    path: '/playbooks/runs/:id',
    title: 'Playbook Run',
    load: () => import('../features/playbooks/run/PlaybookRunPage'),
    access: { resource: 'playbook_runs', feature: 'playbooks' },
    layout: 'shell',
  },
  {
    path: '/playbooks/:id',
    title: 'Playbook',
    load: () => import('../features/playbooks/PlaybookEditPage'),
    access: { resource: 'playbooks', feature: 'playbooks' },
    layout: 'shell',
  },
  ...notificationRoutes,
  {
    path: '/agents',
    title: 'Agents',
    load: () => import('../features/agents/AgentsPage'),
    access: { resource: 'agents', feature: 'agents' },
    layout: 'shell',
  },

  // Settings (the group's entries are sorted by name in the sidebar).
  {
    path: '/settings',
    title: 'Event Queue',
    load: () => import('../features/settings/event-queue/EventQueuePage'),
    access: { resource: 'database', feature: 'settings.event_queue_status' },
    layout: 'shell',
  },
  {
    path: '/settings/event-queue-status',
    title: 'Event Queue',
    load: () => import('../features/settings/event-queue/EventQueuePage'),
    access: { resource: 'database', feature: 'settings.event_queue_status' },
    layout: 'shell',
    nav: { group: 'settings', label: 'Event Queue', icon: ScrollText },
  },
  {
    path: '/settings/connections',
    title: 'Connections',
    load: () => import('../features/settings/connections/ConnectionsPage'),
    access: { resource: 'connections', feature: 'settings.connections' },
    layout: 'shell',
    nav: { group: 'settings', label: 'Connections', icon: Cable },
  },
  {
    path: '/settings/users',
    title: 'Users',
    load: () => import('../features/settings/users/UsersPage'),
    access: { resource: 'identities', feature: 'settings.users' },
    layout: 'shell',
    nav: { group: 'settings', label: 'Users', icon: Users },
  },
  {
    path: '/settings/jobs',
    title: 'Job History',
    load: () => import('../features/settings/jobs/JobHistoryPage'),
    access: { resource: 'database', feature: 'settings.job_history' },
    layout: 'shell',
    nav: { group: 'settings', label: 'Jobs History', icon: History },
  },
  {
    path: '/settings/audit',
    title: 'Audit Log',
    load: () => import('../features/audit/AuditLogPage'),
    // Admins only: the audit trail is the admin-only rbac resource, on the server too (/api/audit).
    access: { resource: 'rbac' },
    layout: 'shell',
    nav: { group: 'settings', label: 'Audit Log', icon: ShieldCheck },
  },
  {
    path: '/settings/feature-flags',
    title: 'Feature Flags',
    load: () => import('../features/settings/feature-flags/FeatureFlagsPage'),
    access: { resource: 'properties', feature: 'settings.feature_flags' },
    layout: 'shell',
    nav: { group: 'settings', label: 'Feature Flags', icon: Flag },
  },
  // /settings/logging_backends (Log Backends) is a settings resource kind (see settingsResourceRoutes).
  {
    path: '/settings/agents',
    title: 'Agents',
    load: () => import('../features/agents/AgentsPage'),
    access: { resource: 'agents', feature: 'agents' },
    layout: 'shell',
    nav: { group: 'settings', label: 'Agents', icon: Bot },
  },
  {
    path: '/settings/integrations',
    title: 'Integrations',
    load: () => import('../features/settings/integrations/IntegrationsPage'),
    access: { resource: 'integrations', feature: 'settings.integrations' },
    layout: 'shell',
    nav: { group: 'settings', label: 'Integrations', icon: Puzzle },
  },
  // An integration's detail needs write on integrations (spec/3 §2).
  {
    path: '/settings/integrations/:type/:id',
    title: 'Integrations',
    load: () => import('../features/settings/integrations/IntegrationDetailPage'),
    access: { resource: 'integrations', action: 'write', feature: 'settings.integrations' },
    layout: 'shell',
  },
  // Status pages (issue 21): editors manage them; the public /status/{slug} pages are served by the server.
  {
    path: '/settings/status-pages',
    title: 'Status Pages',
    load: () => import('../features/status-pages/StatusPagesPage'),
    access: { resource: 'canaries', action: 'read', feature: 'settings.health' },
    layout: 'shell',
    nav: { group: 'settings', label: 'Status Pages', icon: Globe },
  },
  // Maintenance windows (issue 21): viewers read, admins and editors write (canaries, server-enforced).
  {
    path: '/settings/maintenance',
    title: 'Maintenance',
    load: () => import('../features/maintenance/MaintenancePage'),
    access: { resource: 'canaries', action: 'read', feature: 'settings.health' },
    layout: 'shell',
    nav: { group: 'settings', label: 'Maintenance', icon: Wrench },
  },
  ...settingsResourceRoutes,

  // The user's own pages.
  {
    path: '/profile-settings',
    title: 'Your Profile',
    load: () => import('../features/auth/ProfileSettingsPage'),
    layout: 'shell',
  },

  // Identity and error pages (no sign-in needed).
  { path: '/login', title: 'Sign in', load: () => import('../features/auth/LoginPage'), layout: 'public' },
  {
    path: '/registration',
    title: 'Create your account',
    load: () => import('../features/auth/RegistrationPage'),
    layout: 'public',
  },
  {
    path: '/recovery',
    title: 'Reset your password',
    load: () => import('../features/auth/RecoveryPage'),
    layout: 'public',
  },
  {
    path: '/verification',
    title: 'Email verification',
    load: () => import('../features/auth/VerificationPage'),
    layout: 'public',
  },
  { path: '/error', title: 'An error occurred', load: () => import('./pages/FlowErrorPage'), layout: 'public' },
  { path: '/bad-session', title: 'Bad Session', load: () => import('./pages/BadSessionPage'), layout: 'public' },
];

/** Whether a route belongs to an area this deployment mode does not have (it is then not found). */
export const routeAbsent = (route: AppRoute, mode: Mode): boolean => featureAbsent(mode, route.access?.feature);

/** The routes of this deployment mode (OPSDECK_MODE=health: the health area and the settings it needs). */
export const routesForMode = (mode: Mode, routes: readonly AppRoute[] = ROUTES): AppRoute[] =>
  routes.filter((r) => !routeAbsent(r, mode));

/** Where '/' leads: the dashboard, or /health in health-only mode. */
export const landingPath = (mode: Mode): string => (mode === 'health' ? '/health' : LANDING_PATH);

export interface NavItem {
  route: AppRoute;
  label: string;
  icon: LucideIcon;
}

export interface Navigation {
  main: NavItem[];
  /** Empty when the Settings group is hidden or none of its entries is allowed. */
  settings: NavItem[];
}

/** The sidebar for a user: items they may read, with their features on; Settings sorted by name. */
export function navigationFor(subject: AccessSubject, routes: readonly AppRoute[] = ROUTES): Navigation {
  const visible = (r: AppRoute) => !r.access || checkAccess(r.access, subject) === 'allowed';
  const items = (group: NavEntry['group']) =>
    routes
      .filter((r) => r.nav?.group === group && visible(r))
      .map((r) => ({ route: r, label: r.nav!.label, icon: r.nav!.icon }));
  const settingsAllowed = checkAccess(SETTINGS_GROUP.access, subject) === 'allowed';
  return {
    main: items('main'),
    settings: settingsAllowed ? items('settings').sort((a, b) => a.label.localeCompare(b.label)) : [],
  };
}
