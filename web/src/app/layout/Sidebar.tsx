// The sidebar: Dashboard, Health, Incidents, Catalog, Logs, Playbooks and the Settings group,
// generated from the route table and filtered by permission and feature flag. It collapses
// between a wide and a narrow width (the choice persisted) and collapses by itself under 1024 px.
import { ChevronDown, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { accessSubject, useMode, useSession } from '../../api/session';
import { cn } from '../../ui/cn';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '../../ui/menu';
import { useStoredState } from '../../ui/storage';
import { Tooltip } from '../../ui/tooltip';
import { navigationFor, routesForMode, SETTINGS_GROUP, type NavItem } from '../routes';
import { useMediaQuery } from './useMediaQuery';

export const SIDEBAR_STORAGE_KEY = 'opsdeck.sidebar.collapsed';

export function useSidebarCollapsed(): { collapsed: boolean; narrowScreen: boolean; toggle(): void } {
  const [stored, setStored] = useStoredState<boolean>(SIDEBAR_STORAGE_KEY, false, (v) => typeof v === 'boolean');
  const narrowScreen = useMediaQuery('(max-width: 1023.98px)');
  // Under 1024 px the sidebar is collapsed; opening it there is temporary and not persisted.
  const [openOnNarrow, setOpenOnNarrow] = useState(false);
  const collapsed = narrowScreen ? !openOnNarrow : stored;
  return {
    collapsed,
    narrowScreen,
    toggle: () => (narrowScreen ? setOpenOnNarrow(!openOnNarrow) : setStored(!stored)),
  };
}

function Logo({ collapsed }: { collapsed: boolean }) {
  return (
    <div
      className={cn(
        'flex h-14 shrink-0 items-center gap-2.5 border-b border-white/5',
        collapsed ? 'justify-center px-0' : 'px-5',
      )}
    >
      <svg viewBox="0 0 32 32" className="size-7 shrink-0" aria-hidden>
        <rect width="32" height="32" rx="8" fill="var(--primary)" />
        <path
          d="M9 11.5 16 8l7 3.5v9L16 24l-7-3.5z"
          fill="none"
          stroke="#fff"
          strokeWidth="2.2"
          strokeLinejoin="round"
        />
        <path d="M9 11.5 16 15l7-3.5M16 15v9" fill="none" stroke="#fff" strokeWidth="2.2" strokeLinejoin="round" />
      </svg>
      {!collapsed && <span className="text-[15px] font-semibold tracking-tight text-white">Opsdeck</span>}
    </div>
  );
}

const itemClass = (active: boolean, collapsed: boolean) =>
  cn(
    'group flex h-9 items-center gap-3 rounded-md text-[13.5px] font-medium transition-colors',
    collapsed ? 'justify-center px-0' : 'px-3',
    active ? 'bg-sidebar-active text-white' : 'text-sidebar-foreground hover:bg-sidebar-hover hover:text-white',
  );

function SidebarLink({ item, collapsed, nested }: { item: NavItem; collapsed: boolean; nested?: boolean }) {
  const Icon = item.icon;
  return (
    <Tooltip content={item.label} side="right" disabled={!collapsed}>
      <NavLink
        to={item.route.path}
        className={({ isActive }) =>
          cn(itemClass(isActive, collapsed), nested && !collapsed && 'h-8 pl-10 text-[13px]')
        }
        aria-label={collapsed ? item.label : undefined}
      >
        {({ isActive }) => (
          <>
            {!nested && (
              <Icon
                className={cn(
                  'size-[18px] shrink-0',
                  isActive ? 'text-white' : 'text-sidebar-muted group-hover:text-white',
                )}
                aria-hidden
              />
            )}
            {nested && collapsed && <Icon className="size-[18px] shrink-0" aria-hidden />}
            {!collapsed && <span className="truncate">{item.label}</span>}
          </>
        )}
      </NavLink>
    </Tooltip>
  );
}

export function Sidebar({ collapsed, onToggle }: { collapsed: boolean; onToggle(): void }) {
  const session = useSession();
  const nav = navigationFor(accessSubject(session), routesForMode(useMode()));
  const location = useLocation();
  const inSettings = location.pathname === '/settings' || location.pathname.startsWith('/settings/');
  const [settingsOpen, setSettingsOpen] = useState(inSettings);
  const SettingsIcon = SETTINGS_GROUP.icon;

  return (
    <aside
      className={cn(
        'flex h-full shrink-0 flex-col bg-sidebar transition-[width] duration-200',
        collapsed ? 'w-16' : 'w-60',
      )}
      data-collapsed={collapsed}
      data-testid="sidebar"
      aria-label="Main navigation"
    >
      <Logo collapsed={collapsed} />
      <nav className={cn('flex-1 space-y-0.5 overflow-y-auto py-4', collapsed ? 'px-2.5' : 'px-3')}>
        {nav.main.map((item) => (
          <SidebarLink key={item.route.path} item={item} collapsed={collapsed} />
        ))}
        {nav.settings.length > 0 &&
          (collapsed ? (
            <DropdownMenu>
              <Tooltip content={SETTINGS_GROUP.label} side="right">
                <DropdownMenuTrigger asChild>
                  <button
                    type="button"
                    className={cn(itemClass(inSettings, true), 'w-full cursor-pointer')}
                    aria-label={SETTINGS_GROUP.label}
                  >
                    <SettingsIcon className="size-[18px]" aria-hidden />
                  </button>
                </DropdownMenuTrigger>
              </Tooltip>
              <DropdownMenuContent side="right" align="start">
                <DropdownMenuLabel>{SETTINGS_GROUP.label}</DropdownMenuLabel>
                {nav.settings.map((item) => (
                  <DropdownMenuItem key={item.route.path} asChild>
                    <NavLink to={item.route.path}>
                      <item.icon className="size-4 text-muted" aria-hidden />
                      {item.label}
                    </NavLink>
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
          ) : (
            <div>
              <button
                type="button"
                className={cn(itemClass(false, false), 'w-full cursor-pointer', inSettings && 'text-white')}
                aria-expanded={settingsOpen}
                onClick={() => setSettingsOpen(!settingsOpen)}
              >
                <SettingsIcon
                  className={cn(
                    'size-[18px] shrink-0',
                    inSettings ? 'text-white' : 'text-sidebar-muted group-hover:text-white',
                  )}
                  aria-hidden
                />
                <span className="flex-1 text-left">{SETTINGS_GROUP.label}</span>
                <ChevronDown
                  className={cn('size-4 text-sidebar-muted transition-transform', settingsOpen && 'rotate-180')}
                  aria-hidden
                />
              </button>
              {settingsOpen && (
                <div className="mt-0.5 space-y-0.5" role="group" aria-label={SETTINGS_GROUP.label}>
                  {nav.settings.map((item) => (
                    <SidebarLink key={item.route.path} item={item} collapsed={false} nested />
                  ))}
                </div>
              )}
            </div>
          ))}
      </nav>
      <div className={cn('border-t border-white/5 py-3', collapsed ? 'px-2.5' : 'px-3')}>
        <button
          type="button"
          onClick={onToggle}
          className={cn(itemClass(false, collapsed), 'w-full cursor-pointer')}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          data-testid="sidebar-toggle"
        >
          {collapsed ? (
            <PanelLeftOpen className="size-[18px]" aria-hidden />
          ) : (
            <PanelLeftClose className="size-[18px] text-sidebar-muted" aria-hidden />
          )}
          {!collapsed && <span>Collapse</span>}
        </button>
      </div>
    </aside>
  );
}
