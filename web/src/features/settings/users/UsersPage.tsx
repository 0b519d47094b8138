// /settings/users (spec/3 Users): Name, Email, Roles, State, Created At and an Actions menu (Edit
// User, Delete) for those who may write identities; Invite User opens the invite form.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { MoreHorizontal, Pencil, Trash2, UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client';
import { useCan } from '../../../api/session';
import { Badge } from '../../../ui/badge';
import { Breadcrumb } from '../../../ui/breadcrumb';
import { Button } from '../../../ui/button';
import { DataTable, pagedQueryProps } from '../../../ui/data-table';
import { ConfirmDialog } from '../../../ui/dialog';
import { formatDateTime } from '../../../ui/format';
import { useListState } from '../../../ui/list-state';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../ui/menu';
import { usePageHeader } from '../../../ui/page-header';
import { toast } from '../../../ui/toast';
import { settingsKeys } from '../keys';
import { UserFormDialog } from './UserFormDialog';
import { usersApi, type User } from './usersApi';

const column = createColumnHelper<User>();

export default function UsersPage() {
  const canWrite = useCan('identities', 'write');
  const list = useListState({ defaultPageSize: 50 });
  const queryClient = useQueryClient();
  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize };
  const users = useQuery({
    queryKey: settingsKeys.userList(page),
    queryFn: ({ signal }) => usersApi.list(page, signal),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<User | 'new'>();
  const [deleting, setDeleting] = useState<User>();

  const remove = useMutation({
    mutationFn: (user: User) => usersApi.remove(user.id),
    onSuccess: () => {
      toast.success('user deleted successfully');
      setDeleting(undefined);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.users() });
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  usePageHeader({
    onRefresh: users.refetch,
    loading: users.isFetching,
  });

  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: 'Name',
        enableSorting: false,
        cell: (c) => <span className="font-medium">{c.getValue()}</span>,
      }),
      column.accessor('email', {
        header: 'Email',
        enableSorting: false,
        cell: (c) => <span className="text-muted">{c.getValue()}</span>,
      }),
      column.accessor('roles', {
        header: 'Roles',
        enableSorting: false,
        cell: (c) => (
          <div className="flex flex-wrap gap-1">
            {(c.getValue() ?? []).map((r) => (
              <Badge key={r} tone={r === 'admin' ? 'primary' : 'neutral'}>
                {r}
              </Badge>
            ))}
          </div>
        ),
      }),
      column.accessor('state', {
        header: 'State',
        enableSorting: false,
        cell: (c) =>
          c.getValue() === 'active' ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Inactive</Badge>,
      }),
      column.accessor('created_at', {
        header: 'Created At',
        enableSorting: false,
        cell: (c) => <span className="text-muted tabular-nums">{formatDateTime(c.getValue())}</span>,
      }),
      ...(canWrite
        ? [
            column.display({
              id: 'actions',
              header: () => <span className="sr-only">Actions</span>,
              size: 56,
              cell: (c) => (
                <DropdownMenu>
                  <DropdownMenuTrigger asChild>
                    <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${c.row.original.name}`}>
                      <MoreHorizontal className="size-4" />
                    </Button>
                  </DropdownMenuTrigger>
                  <DropdownMenuContent className="min-w-40">
                    <DropdownMenuItem onSelect={() => setEditing(c.row.original)}>
                      <Pencil className="size-4 text-muted" aria-hidden /> Edit User
                    </DropdownMenuItem>
                    <DropdownMenuItem
                      onSelect={() => setDeleting(c.row.original)}
                      className="text-danger data-[highlighted]:text-danger"
                    >
                      <Trash2 className="size-4" aria-hidden /> Delete
                    </DropdownMenuItem>
                  </DropdownMenuContent>
                </DropdownMenu>
              ),
            }),
          ]
        : []),
    ],
    [canWrite],
  );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Breadcrumb items={[{ label: 'Settings' }, { label: 'Users' }]} />
        {canWrite && (
          <Button onClick={() => setEditing('new')}>
            <UserPlus className="size-4" aria-hidden /> Invite User
          </Button>
        )}
      </div>
      <DataTable aria-label="Users" columns={columns} {...pagedQueryProps(users)} list={list} getRowId={(u) => u.id} />
      <UserFormDialog
        open={editing !== undefined}
        onOpenChange={(open) => !open && setEditing(undefined)}
        user={editing === 'new' ? undefined : editing}
      />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title="Delete User ?"
        description={deleting ? `${deleting.name} (${deleting.email}) will no longer be able to sign in.` : undefined}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </div>
  );
}
