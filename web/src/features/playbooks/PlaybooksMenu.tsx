// The 'Playbooks' menu of a check, component or catalog item (spec/1 §2, §6): the playbooks
// runnable for the resource, grouped by category when there are several, each opening the run
// modal. Shown only with write on playbook_runs, with the playbooks feature on, and when at least
// one playbook matches the resource.
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, Workflow } from 'lucide-react';
import { createElement, Fragment, lazy, Suspense, useState } from 'react';
import { useCan, useSession } from '../../api/session';
import { Button } from '../../ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../ui/menu';
import { groupByCategory, playbookIcon, playbookTitle } from './playbookCards';
import { playbookKeys, playbooksApi } from './playbooksApi';
import { pickResourceRef } from './resourceRef';
import type { PlaybookResourceRef, PlaybookSummary } from './types';

// The run modal (its parameter fields bring the code editor and the YAML reader) is loaded when a
// playbook is chosen, so the screens that show this menu (the check drawer among them) open without it.
const RunPlaybookModal = lazy(() => import('./RunPlaybookModal').then((m) => ({ default: m.RunPlaybookModal })));

export function PlaybooksMenu({
  resource,
  size = 'sm',
  className,
}: {
  /** One resource id, with the resource's name for the run modal when the screen has it. */
  resource: PlaybookResourceRef & { label?: string };
  size?: 'sm' | 'md';
  className?: string;
}) {
  const session = useSession();
  const canRun = useCan('playbook_runs', 'write');
  const enabled = canRun && !session.disabledFeatures.includes('playbooks');
  const ref = pickResourceRef(resource);
  const runnable = useQuery({
    queryKey: playbookKeys.runnable(ref),
    queryFn: ({ signal }) => playbooksApi.runnable(ref, signal),
    enabled: enabled && Object.keys(ref).length > 0,
    staleTime: 30_000,
    meta: { silent: true }, // no menu is the answer to a failed lookup
  });
  const [chosen, setChosen] = useState<PlaybookSummary | null>(null);

  const playbooks = runnable.data ?? [];
  if (!enabled || playbooks.length === 0) return null;
  const groups = groupByCategory(
    playbooks.map((p) => ({ ...p, title: p.title ?? null, category: p.category ?? null })),
  );

  return (
    <>
      {/* Not modal: the run modal opens as the menu closes, and must get the pointer back. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" size={size} className={className}>
            <Workflow className="size-3.5" aria-hidden />
            Playbooks
            <ChevronDown className="size-3.5 text-subtle" aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent className="max-h-80 overflow-y-auto">
          {groups.map((group, i) => (
            <Fragment key={group.category}>
              {i > 0 && <DropdownMenuSeparator />}
              {groups.length > 1 && <DropdownMenuLabel>{group.category}</DropdownMenuLabel>}
              {group.playbooks.map((p) => (
                <DropdownMenuItem key={p.id} onSelect={() => setChosen(p)}>
                  {createElement(playbookIcon(p.icon), { className: 'size-4 text-muted', 'aria-hidden': true })}
                  {playbookTitle(p)}
                </DropdownMenuItem>
              ))}
            </Fragment>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
      {chosen && (
        <Suspense fallback={null}>
          <RunPlaybookModal
            playbook={chosen}
            resource={resource}
            open
            onOpenChange={(open) => !open && setChosen(null)}
          />
        </Suspense>
      )}
    </>
  );
}
