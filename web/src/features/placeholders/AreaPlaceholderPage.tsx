// Placeholder for areas whose pages arrive with later issues: it says plainly that the area is
// coming, so navigation works end to end without showing made-up data.
import {
  Activity,
  AlertTriangle,
  Bell,
  Bot,
  Cable,
  Construction,
  LayoutDashboard,
  ListTree,
  Puzzle,
  ScrollText,
  type LucideIcon,
} from 'lucide-react';
import { Card } from '../../ui/card';
import { EmptyState } from '../../ui/empty-state';

const AREAS: Record<string, { icon: LucideIcon; title: string; text: string }> = {
  topology: {
    icon: LayoutDashboard,
    title: 'The topology dashboard is coming',
    text: 'This page will show your components and their health, rolled up from checks and the catalog.',
  },
  health: {
    icon: Activity,
    title: 'The health dashboard is coming',
    text: 'This page will list health checks with uptime, latency and history.',
  },
  incidents: {
    icon: AlertTriangle,
    title: 'Incidents are coming',
    text: 'This page will list incidents with their hypotheses, evidence and responders.',
  },
  catalog: {
    icon: ListTree,
    title: 'The configuration catalog is coming',
    text: 'This page will list configuration items collected by scrapers, with their changes and insights.',
  },
  notifications: {
    icon: Bell,
    title: 'Notifications are coming',
    text: 'This page will show sent notifications, notification rules and silences.',
  },
  agents: {
    icon: Bot,
    title: 'Agents are coming',
    text: 'This page will list remote agents, their status and what they report.',
  },
  'event-queue': {
    icon: ScrollText,
    title: 'Event queue status is coming',
    text: 'This page will summarise the event queue: pending and failed events and the most common errors.',
  },
  connections: {
    icon: Cable,
    title: 'Connections are coming',
    text: 'This page will manage connections to databases, clouds, source control and notification services.',
  },
  integrations: {
    icon: Puzzle,
    title: 'Integrations are coming',
    text: 'This page will add scrapers, topologies and log backends directly or via GitOps.',
  },
};

export default function AreaPlaceholderPage({ area }: { area: string }) {
  const info = AREAS[area] ?? {
    icon: Construction,
    title: 'This area is coming',
    text: 'It arrives with a later release.',
  };
  return (
    <Card>
      <EmptyState
        icon={info.icon}
        title={info.title}
        description={
          <>
            <p>{info.text}</p>
            <p className="mt-2 text-subtle">
              It is not built yet in this version of Opsdeck; nothing here is real data.
            </p>
          </>
        }
        className="py-24"
      />
    </Card>
  );
}
