// The Members tab of a team (spec/3 §2 Teams): the members with name and email, and for those who
// may write the team tables an 'Add Members' button and a remove action per row (confirmed, then
// only this team's membership is deleted).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { UserMinus, UserPlus, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client';
import { useCan } from '../../../api/session';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { DataTable } from '../../../ui/data-table';
import { ConfirmDialog } from '../../../ui/dialog';
import { EmptyState } from '../../../ui/empty-state';
import { toast } from '../../../ui/toast';
import { settingsKeys } from '../keys';
import type { SettingsResourceKind } from '../resources/kinds';
import { AddMembersDialog } from './AddMembersDialog';
import { membersOf, NO_TEAM_MEMBERS, removedMessage } from './members';
import { teamMembersApi, type Person } from './teamMembersApi';

const column = createColumnHelper<Person>();

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase() || '?';
}

export function TeamMembersTab({ kind, team }: { kind: SettingsResourceKind; team: { id: string; name: string } }) {
  const canWrite = useCan(kind.resource, 'write');
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Person>();

  // A failure is toasted with the server's message by the query client (spec/3 §8).
  const rows = useQuery({
    queryKey: settingsKeys.teamMembers(team.id),
    queryFn: ({ signal }) => teamMembersApi.list(team.id, signal),
  });
  const members = useMemo(() => membersOf(rows.data), [rows.data]);

  const remove = useMutation({
    mutationFn: (person: Person) => teamMembersApi.remove(team.id, person.id),
    onSuccess: (_r, person) => {
      toast.success(removedMessage(person.name));
      setRemoving(undefined);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.teamMembers(team.id), exact: true });
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: 'Name',
        enableSorting: false,
        cell: (c) => (
          <span className="inline-flex items-center gap-2.5">
            {c.row.original.avatar ? (
              <img src={c.row.original.avatar} alt="" className="size-7 rounded-full object-cover" />
            ) : (
              <span
                className="flex size-7 items-center justify-center rounded-full bg-primary-soft text-[11px] font-semibold text-primary"
                aria-hidden
              >
                {initials(c.getValue())}
              </span>
            )}
            <span className="font-medium">{c.getValue()}</span>
          </span>
        ),
      }),
      column.accessor('email', {
        header: 'Email',
        enableSorting: false,
        cell: (c) => <span className="text-muted">{c.getValue() ?? '—'}</span>,
      }),
      ...(canWrite
        ? [
            column.display({
              id: 'actions',
              header: () => <span className="sr-only">Actions</span>,
              size: 56,
              cell: (c) => (
                <div className="flex justify-end">
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    className="hover:text-danger"
                    aria-label={`Remove ${c.row.original.name}`}
                    title="Remove from team"
                    onClick={() => setRemoving(c.row.original)}
                  >
                    <UserMinus className="size-4" aria-hidden />
                  </Button>
                </div>
              ),
            }),
          ]
        : []),
    ],
    [canWrite],
  );

  const loaded = rows.isSuccess;
  return (
    <div className="space-y-3">
      <div className="flex min-h-9 flex-wrap items-center justify-between gap-3">
        <p className="text-[13px] text-muted" data-testid="team-member-count">
          {loaded ? `${members.length} ${members.length === 1 ? 'member' : 'members'}` : '\u00a0'}
        </p>
        {canWrite && (
          <Button onClick={() => setAdding(true)} disabled={!loaded}>
            <UserPlus className="size-4" aria-hidden /> Add Members
          </Button>
        )}
      </div>
      {loaded && members.length === 0 ? (
        <Card>
          <EmptyState icon={Users} title={NO_TEAM_MEMBERS} />
        </Card>
      ) : (
        <DataTable
          aria-label="Team members"
          columns={columns}
          data={loaded ? members : undefined}
          loading={rows.isPending}
          getRowId={(p) => p.id}
          emptyMessage={rows.isError ? errorMessage(rows.error) : undefined}
        />
      )}
      {canWrite && (
        <AddMembersDialog
          teamId={team.id}
          teamName={team.name}
          members={members}
          open={adding}
          onOpenChange={setAdding}
        />
      )}
      <ConfirmDialog
        open={!!removing}
        onOpenChange={(open) => !open && setRemoving(undefined)}
        title="Remove Member ?"
        description={removing ? `${removing.name} will be removed from ${team.name}.` : undefined}
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
      />
    </div>
  );
}
