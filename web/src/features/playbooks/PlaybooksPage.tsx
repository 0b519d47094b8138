// /playbooks: the live playbooks as cards grouped by category (spec/3 §2), each with Edit (the spec
// editor), History (its runs), Delete and Run (write on playbooks); New Playbook and a link to all
// runs. Playbooks are read through /api/db in pages of PAGE_SIZE with a 'Load more' button.
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { History, ListChecks, Pencil, Play, Plus, Trash2, Workflow } from 'lucide-react';
import { createElement, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { db } from '../../api/postgrest';
import { useCan } from '../../api/session';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { ConfirmDialog } from '../../ui/dialog';
import { EmptyState } from '../../ui/empty-state';
import { usePageHeader } from '../../ui/page-header';
import { Skeleton } from '../../ui/skeleton';
import { toast } from '../../ui/toast';
import { AwaitingApproval } from './AwaitingApproval';
import { groupByCategory, playbookIcon, playbookTitle, type PlaybookCardRow } from './playbookCards';
import { SAMPLE_PLAYBOOK_YAML } from './playbookSchema';
import { playbookKeys, playbooksApi } from './playbooksApi';
import { RunPlaybookModal } from './RunPlaybookModal';

const PAGE_SIZE = 100;
const CARD_COLUMNS = 'id,name,namespace,title,icon,description,category,source';
const NO_PLAYBOOKS = 'There are no playbooks yet';

const playbookCardKeys = { cards: () => [...playbookKeys.list(), 'cards'] as const };

export default function PlaybooksPage() {
  const queryClient = useQueryClient();
  const canWrite = useCan('playbooks', 'write');
  const [running, setRunning] = useState<PlaybookCardRow | null>(null);
  const [deleting, setDeleting] = useState<PlaybookCardRow | null>(null);

  const cards = useInfiniteQuery({
    queryKey: playbookCardKeys.cards(),
    queryFn: ({ pageParam, signal }) =>
      db<PlaybookCardRow>('playbooks')
        .select(CARD_COLUMNS)
        .is('deleted_at', null)
        .order('category', { nulls: 'last' })
        .order('name')
        .order('id')
        .page(pageParam, PAGE_SIZE)
        .list(signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.data.length, 0) < (last.total ?? 0) ? pages.length : undefined,
    meta: { silent: true }, // shown in place of the cards
  });
  usePageHeader({ onRefresh: () => void cards.refetch(), loading: cards.isFetching });

  const remove = useMutation({
    mutationFn: (p: PlaybookCardRow) => playbooksApi.remove(p.id),
    onSuccess: () => {
      toast.success('Playbook Spec deleted successfully');
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: playbookKeys.all });
    },
    onError: (e) => toast.error(`Unable to delete playbook spec: ${errorMessage(e)}`),
  });

  const playbooks = cards.data?.pages.flatMap((p) => p.data) ?? [];
  const groups = groupByCategory(playbooks);
  const total = cards.data?.pages.at(-1)?.total;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-[13px] text-muted" data-testid="playbooks-count">
          {playbooks.length > 0 &&
            `${total ?? playbooks.length} playbook${(total ?? playbooks.length) === 1 ? '' : 's'}`}
        </p>
        <div className="ml-auto flex gap-2">
          <AwaitingApproval />
          <Button asChild variant="outline" size="sm">
            <Link to="/playbooks/runs">
              <ListChecks className="size-4" aria-hidden /> Runs
            </Link>
          </Button>
          {canWrite && (
            <Button asChild size="sm">
              <Link to="/playbooks/new">
                <Plus className="size-4" aria-hidden /> New Playbook
              </Link>
            </Button>
          )}
        </div>
      </div>

      {cards.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="playbooks-loading">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-40 rounded-lg" />
          ))}
        </div>
      ) : cards.isError ? (
        <Card>
          <EmptyState icon={Workflow} title="Unable to load playbooks" description={errorMessage(cards.error)} />
        </Card>
      ) : groups.length === 0 ? (
        <Card>
          <EmptyState
            icon={Workflow}
            title={NO_PLAYBOOKS}
            description={
              <>
                <p>
                  A playbook is a runbook you can run from here: a list of actions (scripts, HTTP requests, SQL queries)
                  with parameters, optionally for a catalog item, component or health check. It is a{' '}
                  <code>Playbook</code> resource written in YAML, for example:
                </p>
                <pre className="mt-3 overflow-x-auto rounded-md border border-border bg-surface-muted p-3 text-left font-mono text-[12px] leading-5 text-foreground">
                  {SAMPLE_PLAYBOOK_YAML}
                </pre>
              </>
            }
            action={
              canWrite && (
                <Button asChild>
                  <Link to="/playbooks/new">
                    <Plus className="size-4" aria-hidden /> New Playbook
                  </Link>
                </Button>
              )
            }
          />
        </Card>
      ) : (
        <>
          {groups.map((group) => (
            <section key={group.category} aria-label={group.category} data-testid="playbook-category">
              <h2 className="mb-2.5 text-[13px] font-semibold uppercase tracking-wide text-muted">
                {group.category} <span className="font-normal">({group.playbooks.length})</span>
              </h2>
              <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
                {group.playbooks.map((p) => (
                  <PlaybookCard
                    key={p.id}
                    playbook={p}
                    canWrite={canWrite}
                    onRun={() => setRunning(p)}
                    onDelete={() => setDeleting(p)}
                  />
                ))}
              </div>
            </section>
          ))}
          {cards.hasNextPage && (
            <div className="flex justify-center">
              <Button variant="outline" loading={cards.isFetchingNextPage} onClick={() => void cards.fetchNextPage()}>
                Load more playbooks
              </Button>
            </div>
          )}
        </>
      )}

      {running && (
        <RunPlaybookModal
          playbook={{ id: running.id, name: running.name, title: running.title }}
          // No resource: the modal asks for one when the playbook declares selectors.
          resource={{}}
          open
          onOpenChange={(open) => !open && setRunning(null)}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete Playbook ?"
        description={deleting ? `${playbookTitle(deleting)} will be deleted; its runs stay in the history.` : undefined}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  );
}

function PlaybookCard({
  playbook: p,
  canWrite,
  onRun,
  onDelete,
}: {
  playbook: PlaybookCardRow;
  canWrite: boolean;
  onRun(): void;
  onDelete(): void;
}) {
  const title = playbookTitle(p);
  return (
    <article
      aria-label={title}
      data-testid="playbook-card"
      data-playbook-id={p.id}
      className="flex flex-col rounded-lg border border-border bg-surface shadow-card"
    >
      <div className="flex flex-1 items-start gap-3 px-4 pt-4 pb-3">
        <div className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary-soft text-primary">
          {createElement(playbookIcon(p.icon), { className: 'size-[18px]', 'aria-hidden': true })}
        </div>
        <div className="min-w-0">
          <h3 className="truncate text-[14px] font-semibold text-foreground" title={`${p.namespace}/${p.name}`}>
            {title}
          </h3>
          {p.description ? (
            <p className="mt-0.5 line-clamp-3 text-[13px] text-muted">{p.description}</p>
          ) : (
            <p className="mt-0.5 text-[13px] text-subtle">{`${p.namespace}/${p.name}`}</p>
          )}
        </div>
      </div>
      <div className="flex items-center gap-1 border-t border-border px-2 py-1.5">
        <Button asChild variant="ghost" size="sm">
          <Link to={`/playbooks/${p.id}`} aria-label={`Edit ${title}`}>
            <Pencil className="size-3.5" aria-hidden /> Edit
          </Link>
        </Button>
        <Button asChild variant="ghost" size="sm">
          <Link to={`/playbooks/runs?playbook=${encodeURIComponent(p.id)}`} aria-label={`History of ${title}`}>
            <History className="size-3.5" aria-hidden /> History
          </Link>
        </Button>
        {canWrite && (
          <Button variant="ghost" size="sm" className="text-danger" onClick={onDelete} aria-label={`Delete ${title}`}>
            <Trash2 className="size-3.5" aria-hidden /> Delete
          </Button>
        )}
        {canWrite && (
          <Button variant="outline" size="sm" className="ml-auto" onClick={onRun} aria-label={`Run ${title}`}>
            <Play className="size-3.5" aria-hidden /> Run
          </Button>
        )}
      </div>
    </article>
  );
}
