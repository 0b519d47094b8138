// The tab bar of the notifications area (spec/3 §2): Notifications (send history), Rules, Silences.
// Each tab is its own route, so a link or a reload keeps the tab.
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Tabs, TabsList, TabsTrigger } from '../../ui/tabs';

export const NOTIFICATION_TABS = [
  { path: '/notifications', label: 'Notifications' },
  { path: '/notifications/rules', label: 'Rules' },
  { path: '/notifications/silences', label: 'Silences' },
] as const;

function currentTab(pathname: string): string {
  if (pathname.startsWith('/notifications/rules')) return '/notifications/rules';
  if (pathname.startsWith('/notifications/silences')) return '/notifications/silences';
  return '/notifications';
}

/** The tabs, with the page's own controls (filters, add buttons) at their right. */
export function NotificationsTabs({ actions }: { actions?: ReactNode }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <div className="flex flex-wrap items-end justify-between gap-3 border-b border-border">
      <Tabs value={currentTab(pathname)} onValueChange={(to) => navigate(to)}>
        <TabsList className="border-b-0">
          {NOTIFICATION_TABS.map((t) => (
            <TabsTrigger key={t.path} value={t.path}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      {actions && <div className="flex flex-wrap items-center gap-2 pb-2">{actions}</div>}
    </div>
  );
}
