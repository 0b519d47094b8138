// A connection type's icon and label (the table's Type column, the type picker).
import {
  Activity,
  Bell,
  Boxes,
  Cable,
  Cloud,
  Database,
  FolderTree,
  GitBranch,
  Globe,
  HardDrive,
  Leaf,
  Mail,
  MessageSquare,
  ScrollText,
  Search,
  Send,
  Siren,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { createElement } from 'react';
import { connectionType, type ConnectionFamily } from '@opsdeck/common/connections';
import { cn } from '../../../ui/cn';

const FAMILY_ICONS: Record<ConnectionFamily, LucideIcon> = {
  database: Database,
  cloud: Cloud,
  'source-control': GitBranch,
  notification: Bell,
  other: Cable,
};

const TYPE_ICONS: Record<string, LucideIcon> = {
  mongo: Leaf,
  s3: HardDrive,
  email: Mail,
  slack: MessageSquare,
  teams: MessageSquare,
  discord: MessageSquare,
  mattermost: MessageSquare,
  googlechat: MessageSquare,
  telegram: Send,
  opsgenie: Siren,
  pagerduty: Siren,
  generic_webhook: Webhook,
  http: Globe,
  sftp: FolderTree,
  smb: FolderTree,
  kubernetes: Boxes,
  prometheus: Activity,
  loki: ScrollText,
  opensearch: Search,
};

function connectionTypeIcon(type: string): LucideIcon {
  const def = connectionType(type);
  if (!def) return Cable;
  return TYPE_ICONS[def.type] ?? FAMILY_ICONS[def.family];
}

export function ConnectionTypeIcon({ type }: { type: string }) {
  return createElement(connectionTypeIcon(type), { className: 'size-4 shrink-0 text-muted', 'aria-hidden': true });
}

/** The type's label with its icon; an unknown type shows as stored. */
export function ConnectionTypeLabel({ type, className }: { type: string; className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 whitespace-nowrap', className)}>
      <ConnectionTypeIcon type={type} />
      {connectionType(type)?.label ?? type}
    </span>
  );
}
