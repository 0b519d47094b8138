// The 'Add Members' modal: pick people not yet in the team and add them all in one POST;
// '{names} added to the team successfully', or the server's message.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/button';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { toast } from '../../../ui/toast';
import { settingsKeys } from '../keys';
import { addedMessage, nonMembers } from './members';
import { PeoplePicker } from './PeoplePicker';
import { teamMembersApi, type Person } from './teamMembersApi';

export function AddMembersDialog({
  teamId,
  teamName,
  members,
  open,
  onOpenChange,
}: {
  teamId: string;
  teamName: string;
  members: readonly Person[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <AddMembersForm teamId={teamId} teamName={teamName} members={members} onClose={() => onOpenChange(false)} />
      )}
    </Dialog>
  );
}

function AddMembersForm({
  teamId,
  teamName,
  members,
  onClose,
}: {
  teamId: string;
  teamName: string;
  members: readonly Person[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string[]>([]);
  // Asked again on every opening (people are invited elsewhere). A failure is toasted by the query
  // client with the server's message (spec/3 §8) and shown in the list.
  const people = useQuery({
    queryKey: settingsKeys.people(),
    queryFn: ({ signal }) => teamMembersApi.people(signal),
    staleTime: 0,
  });
  const candidates = useMemo(() => nonMembers(people.data ?? [], members), [people.data, members]);

  const add = useMutation({
    mutationFn: (picked: Person[]) =>
      teamMembersApi.add(
        teamId,
        picked.map((p) => p.id),
      ),
    onSuccess: (_rows, picked) => {
      toast.success(addedMessage(picked.map((p) => p.name)));
      void queryClient.invalidateQueries({ queryKey: settingsKeys.teamMembers(teamId), exact: true });
      onClose();
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  const submit = () => {
    const picked = selected.flatMap((id) => candidates.filter((p) => p.id === id));
    if (picked.length) add.mutate(picked);
  };

  return (
    <DialogContent
      title="Add Members"
      description={`Pick the people to add to ${teamName}.`}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={!selected.length} loading={add.isPending}>
            {!add.isPending && <UserPlus className="size-4" aria-hidden />}
            {add.isPending ? 'Adding' : selected.length > 1 ? `Add ${selected.length} members` : 'Add'}
          </Button>
        </>
      }
    >
      <PeoplePicker
        people={candidates}
        selected={selected}
        onChange={setSelected}
        loading={people.isPending}
        error={people.isError ? errorMessage(people.error) : undefined}
        disabled={add.isPending}
      />
    </DialogContent>
  );
}
