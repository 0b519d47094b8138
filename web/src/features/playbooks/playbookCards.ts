// The /playbooks cards: playbooks grouped by category (those without one under 'Other'), the title
// a card shows and the icon for a playbook's icon name.
import {
  Bell,
  Boxes,
  Cloud,
  Database,
  GitBranch,
  Globe,
  RotateCw,
  Scaling,
  Server,
  Terminal,
  Trash2,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import type { PlaybookRow } from './types';

export const DEFAULT_CATEGORY = 'Other';

export type PlaybookCardRow = Pick<
  PlaybookRow,
  'id' | 'name' | 'namespace' | 'title' | 'icon' | 'description' | 'category' | 'source'
>;

export interface PlaybookGroup<T> {
  category: string;
  playbooks: T[];
}

type Titled = Pick<PlaybookRow, 'name' | 'title'>;

/** The title a playbook is shown by: its title, else its name. */
export function playbookTitle(p: Titled): string {
  return p.title?.trim() || p.name;
}

const byTitle = (a: Titled, b: Titled) =>
  playbookTitle(a).localeCompare(playbookTitle(b), undefined, { sensitivity: 'base' }) || a.name.localeCompare(b.name);

/** Groups sorted by category name with 'Other' last; playbooks sorted by title inside a group. */
export function groupByCategory<T extends Titled & Pick<PlaybookRow, 'category'>>(
  playbooks: readonly T[],
): PlaybookGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const p of playbooks) {
    const category = p.category?.trim() || DEFAULT_CATEGORY;
    const group = groups.get(category);
    if (group) group.push(p);
    else groups.set(category, [p]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) =>
      a === DEFAULT_CATEGORY ? 1 : b === DEFAULT_CATEGORY ? -1 : a.localeCompare(b, undefined, { sensitivity: 'base' }),
    )
    .map(([category, list]) => ({ category, playbooks: [...list].sort(byTitle) }));
}

const ICONS: Record<string, LucideIcon> = {
  bash: Terminal,
  shell: Terminal,
  terminal: Terminal,
  exec: Terminal,
  script: Terminal,
  http: Globe,
  webhook: Globe,
  globe: Globe,
  sql: Database,
  database: Database,
  postgres: Database,
  mysql: Database,
  kubernetes: Boxes,
  k8s: Boxes,
  pod: Boxes,
  deployment: Boxes,
  restart: RotateCw,
  reload: RotateCw,
  scale: Scaling,
  delete: Trash2,
  git: GitBranch,
  github: GitBranch,
  gitops: GitBranch,
  aws: Cloud,
  azure: Cloud,
  gcp: Cloud,
  cloud: Cloud,
  server: Server,
  notification: Bell,
  slack: Bell,
};

/** The icon for a playbook's icon name (case-insensitive; 'aws-ec2' falls back to 'aws'); a generic one otherwise. */
export function playbookIcon(icon: string | null | undefined): LucideIcon {
  const key = (icon ?? '').trim().toLowerCase();
  return ICONS[key] ?? ICONS[key.split(/[-_:/ ]/)[0] ?? ''] ?? Workflow;
}
