// The icon of a check: its own icon name when we know it, else one for its type.
import {
  Activity,
  BellRing,
  Boxes,
  Cloud,
  Database,
  Flame,
  FlaskConical,
  Folder,
  Globe,
  Network,
  Radar,
  Search,
  Terminal,
  Users,
  Waypoints,
  type LucideIcon,
} from 'lucide-react';
import { createElement } from 'react';
import { cn } from '../../../ui/cn';

const BY_NAME: Record<string, LucideIcon> = {
  http: Globe,
  https: Globe,
  tcp: Network,
  dns: Waypoints,
  icmp: Radar,
  ping: Radar,
  exec: Terminal,
  folder: Folder,
  junit: FlaskConical,
  postgres: Database,
  postgresql: Database,
  mysql: Database,
  mssql: Database,
  sql: Database,
  mongodb: Database,
  mongo: Database,
  redis: Database,
  prometheus: Flame,
  alertmanager: BellRing,
  elasticsearch: Search,
  ldap: Users,
  s3: Cloud,
  gcs: Cloud,
  aws: Cloud,
  kubernetes: Boxes,
  k8s: Boxes,
  pod: Boxes,
};

export function checkIconFor(icon: string | null | undefined, type: string | null | undefined): LucideIcon {
  const key = (icon ?? '').toLowerCase();
  return BY_NAME[key] ?? BY_NAME[(type ?? '').toLowerCase()] ?? Activity;
}

export function CheckIcon({
  icon,
  type,
  className,
}: {
  icon?: string | null;
  type?: string | null;
  className?: string;
}) {
  return createElement(checkIconFor(icon, type), {
    className: cn('size-4 shrink-0 text-muted', className),
    'aria-hidden': true,
  });
}
