// Comments of an incident or of one hypothesis (spec/2 §4, §5, §8): the list with mentions
// highlighted, and a box that posts optimistically (rolled back on failure). Without a
// hypothesis it says 'Please select any hypothesis'; empty text 'Please add comment details'.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../../api/client';
import { useSession } from '../../../api/session';
import { Button } from '../../../ui/button';
import { formatAge, formatDateTime } from '../../../ui/format';
import { toast } from '../../../ui/toast';
import { incidentsApi } from '../incidentsApi';
import { incidentKeys } from '../keys';
import { parseMentions, toMarkup } from '../mentions';
import type { CommentRow } from '../types';
import { Avatar } from './Avatar';
import { MentionTextarea, type MentionValue } from './MentionTextarea';

export const SELECT_HYPOTHESIS = 'Please select any hypothesis';
export const ADD_COMMENT_DETAILS = 'Please add comment details';

export function CommentText({ comment }: { comment: string }) {
  return (
    <p className="whitespace-pre-wrap text-[13.5px] text-foreground">
      {parseMentions(comment).map((s, i) =>
        s.kind === 'text' ? (
          <span key={i}>{s.text}</span>
        ) : (
          <span key={i} className="rounded bg-primary-soft px-0.5 font-medium text-primary" data-mention={s.id}>
            @{s.display}
          </span>
        ),
      )}
    </p>
  );
}

export function CommentList({
  comments,
  emptyText = 'No comments yet',
}: {
  comments: CommentRow[];
  /** null: nothing at all when there are no comments. */
  emptyText?: string | null;
}) {
  if (!comments.length) return emptyText ? <p className="py-4 text-[13px] text-muted">{emptyText}</p> : null;
  return (
    <ul className="space-y-3">
      {comments.map((c) => (
        <li key={c.id} className="flex gap-3" data-testid="comment" data-pending={c.pending || undefined}>
          <Avatar name={c.author?.name ?? c.external_created_by} src={c.author?.avatar} className="size-7" />
          <div className="min-w-0 flex-1">
            <div className="flex items-baseline gap-2 text-[12.5px]">
              <span className="font-medium text-foreground">
                {c.author?.name ?? c.external_created_by ?? 'Unknown'}
              </span>
              <span className="text-subtle" title={formatDateTime(c.created_at)}>
                {c.pending ? 'sending…' : formatAge(c.created_at)}
              </span>
            </div>
            <CommentText comment={c.comment} />
          </div>
        </li>
      ))}
    </ul>
  );
}

export function CommentBox({
  incidentId,
  hypothesisId,
  canWrite,
}: {
  incidentId: string;
  hypothesisId: string | undefined;
  canWrite: boolean;
}) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [value, setValue] = useState<MentionValue>({ text: '', mentions: [] });
  const key = incidentKeys.comments(incidentId);

  const add = useMutation({
    mutationFn: (c: { hypothesis_id: string; comment: string }) =>
      incidentsApi.addComment({ ...c, incident_id: incidentId, created_by: session.person.id }),
    onMutate: async (c) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CommentRow[]>(key);
      const optimistic: CommentRow = {
        id: `pending-${Date.now()}`,
        incident_id: incidentId,
        hypothesis_id: c.hypothesis_id,
        comment: c.comment,
        created_by: session.person.id,
        created_at: new Date().toISOString(),
        author: { id: session.person.id, name: session.person.name, avatar: session.person.avatar },
        pending: true,
      };
      queryClient.setQueryData<CommentRow[]>(key, [...(previous ?? []), optimistic]);
      return { previous };
    },
    onError: (e, _c, ctx) => {
      queryClient.setQueryData(key, ctx?.previous);
      toast.error(errorMessage(e));
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: incidentKeys.history(incidentId) });
    },
  });

  if (!canWrite) return null;

  function send() {
    if (!hypothesisId) {
      toast.error(SELECT_HYPOTHESIS);
      return;
    }
    if (!value.text.trim()) {
      toast.error(ADD_COMMENT_DETAILS);
      return;
    }
    add.mutate({ hypothesis_id: hypothesisId, comment: toMarkup(value.text.trim(), value.mentions) });
    setValue({ text: '', mentions: [] });
  }

  return (
    <div className="flex items-start gap-2">
      <div className="flex-1">
        <MentionTextarea
          value={value}
          onChange={setValue}
          ariaLabel="Comment"
          placeholder="Add a comment, @ to mention someone"
          onSubmit={send}
        />
      </div>
      <Button aria-label="Send comment" size="icon" disabled={!value.text} onClick={send}>
        <Send className="size-4" />
      </Button>
    </div>
  );
}
