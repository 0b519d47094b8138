// The Action Plan tab (spec/2 §4): the hypothesis tree root → factor → solution. Each hypothesis
// has a title (saved 1 s after typing stops), a status (saved after 200 ms; Disprove sets
// Disproven), children of the next type, its evidence and its comments; delete removes its
// comments and evidence first. ?comments=true expands every hypothesis.
import { useMutation } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, MessageSquare, Plus, Trash2, XCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  childHypothesisType,
  displayHypothesisStatus,
  HYPOTHESIS_STATUSES,
  type HypothesisType,
} from '@opsdeck/common/incidents';
import { errorMessage } from '../../../api/client';
import { useSession } from '../../../api/session';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/dialog';
import { Input, Select } from '../../../ui/input';
import { useDebouncedCallback } from '../../../ui/link-to-incident/useDebounced';
import { toast } from '../../../ui/toast';
import { buildHypothesisTree, subtreeRows, type TreeNode } from '../hypothesisTree';
import { incidentsApi } from '../incidentsApi';
import type { CommentRow, HypothesisRow } from '../types';
import { CommentBox, CommentList } from './Comments';
import { EvidenceItem } from './EvidenceItem';
import { useIncidentRefresh } from './useIncidentRefresh';

export const HYPOTHESIS_STATUS_DEBOUNCE_MS = 200;
export const HYPOTHESIS_TITLE_DEBOUNCE_MS = 1000;

const TYPE_NAMES: Record<HypothesisType, string> = { root: 'Root cause', factor: 'Factor', solution: 'Solution' };

interface Ctx {
  incidentId: string;
  comments: CommentRow[];
  expandAll: boolean;
  canWrite: boolean;
  canWriteEvidence: boolean;
  canComment: boolean;
}

export function ActionPlan({
  incidentId,
  hypotheses,
  comments,
  expandAll,
  canWrite,
  canWriteEvidence,
  canComment,
}: Ctx & { hypotheses: HypothesisRow[] }) {
  const tree = buildHypothesisTree(hypotheses);
  const ctx: Ctx = { incidentId, comments, expandAll, canWrite, canWriteEvidence, canComment };
  return (
    <div className="space-y-3" data-testid="action-plan">
      {tree.map((n) => (
        <HypothesisNode key={n.row.id} node={n} ctx={ctx} depth={0} />
      ))}
      {canWrite && <NewHypothesis incidentId={incidentId} parent={null} type="root" />}
    </div>
  );
}

function NewHypothesis({
  incidentId,
  parent,
  type,
  onDone,
}: {
  incidentId: string;
  parent: string | null;
  type: HypothesisType;
  onDone?(): void;
}) {
  const session = useSession();
  const refresh = useIncidentRefresh(incidentId);
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const add = useMutation({
    mutationFn: () =>
      incidentsApi.addHypothesis({
        incident_id: incidentId,
        parent_id: parent,
        title: title.trim(),
        type,
        created_by: session.person.id,
      }),
    onSuccess: () => {
      setTitle('');
      setOpen(false);
      onDone?.();
      refresh('hypotheses');
    },
    // A failed creation is logged (spec/2 §8) and told.
    onError: (e) => {
      console.error('Creating a hypothesis failed', e);
      toast.error(errorMessage(e));
    },
  });
  const name = TYPE_NAMES[type].toLowerCase();
  if (!open)
    return (
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        <Plus className="size-3.5" aria-hidden /> Add {name}
      </Button>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (title.trim()) add.mutate();
  };
  return (
    <form onSubmit={submit} className="flex items-center gap-2">
      <Input
        autoFocus
        aria-label={`New ${name} title`}
        placeholder={`New ${name}`}
        className="h-8 text-[13px]"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
      />
      <Button type="submit" size="sm" loading={add.isPending} disabled={!title.trim()}>
        Save
      </Button>
      <Button type="button" variant="ghost" size="sm" onClick={() => setOpen(false)}>
        Cancel
      </Button>
    </form>
  );
}

function HypothesisNode({ node, ctx, depth }: { node: TreeNode<HypothesisRow>; ctx: Ctx; depth: number }) {
  const h = node.row;
  const refresh = useIncidentRefresh(ctx.incidentId);
  const [expanded, setExpanded] = useState(ctx.expandAll || depth === 0);
  const [title, setTitle] = useState(h.title ?? '');
  const [status, setStatus] = useState<string>(displayHypothesisStatus(h.status));
  const [deleting, setDeleting] = useState(false);
  const [busyDelete, setBusyDelete] = useState(false);
  const childType = childHypothesisType(h.type as HypothesisType);
  const comments = ctx.comments.filter((c) => c.hypothesis_id === h.id);
  const evidences = h.evidences ?? [];

  const save = useMutation({
    mutationFn: (values: { status?: string; title?: string }) => incidentsApi.updateHypothesis(h.id, values),
    onSuccess: (_r, values) => refresh(values.status ? 'hypotheses' : 'hypotheses'),
    onError: (e) => toast.error(errorMessage(e)),
  });
  const saveStatus = useDebouncedCallback((s: string) => save.mutate({ status: s }), HYPOTHESIS_STATUS_DEBOUNCE_MS);
  const saveTitle = useDebouncedCallback((t: string) => save.mutate({ title: t }), HYPOTHESIS_TITLE_DEBOUNCE_MS);

  async function remove() {
    setBusyDelete(true);
    try {
      await incidentsApi.deleteHypotheses(subtreeRows(node).map((r) => r.id));
      setDeleting(false);
      refresh('hypotheses', 'comments');
    } catch (e) {
      // spec/2 §4: a failed delete is only logged and the deleting state cleared.
      console.error('Deleting a hypothesis failed', e);
    } finally {
      setBusyDelete(false);
    }
  }

  return (
    <div
      className="rounded-lg border border-border bg-surface shadow-card"
      data-testid="hypothesis"
      data-hypothesis-type={h.type}
    >
      <div className="flex flex-wrap items-center gap-2 px-3 py-2">
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={expanded ? 'Collapse' : 'Expand'}
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
        </Button>
        <Badge tone={h.type === 'root' ? 'danger' : h.type === 'factor' ? 'warning' : 'success'}>
          {TYPE_NAMES[h.type as HypothesisType] ?? h.type}
        </Badge>
        <Input
          aria-label="Hypothesis title"
          className="h-8 min-w-48 flex-1 border-transparent bg-transparent text-[13.5px] font-medium shadow-none hover:border-border"
          value={title}
          readOnly={!ctx.canWrite}
          onChange={(e) => {
            setTitle(e.target.value);
            if (e.target.value.trim()) saveTitle(e.target.value.trim());
          }}
        />
        <Select
          aria-label="Hypothesis status"
          className="h-8 w-36 text-[13px]"
          value={status}
          disabled={!ctx.canWrite}
          onChange={(e) => {
            setStatus(e.target.value);
            saveStatus(e.target.value);
          }}
        >
          {HYPOTHESIS_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <span className="inline-flex items-center gap-1 text-[12px] text-muted">
          <MessageSquare className="size-3.5" aria-hidden /> {comments.length}
        </span>
        {ctx.canWrite && (
          <>
            <Button
              variant="ghost"
              size="sm"
              disabled={status === 'Disproven'}
              onClick={() => {
                setStatus('Disproven');
                save.mutate({ status: 'Disproven' });
              }}
            >
              <XCircle className="size-3.5" aria-hidden /> Disprove
            </Button>
            <Button variant="ghost" size="icon-sm" aria-label="Delete hypothesis" onClick={() => setDeleting(true)}>
              <Trash2 className="size-3.5" />
            </Button>
          </>
        )}
      </div>
      {expanded && (
        <div className="space-y-3 border-t border-border px-4 py-3">
          {evidences.length > 0 && (
            <ul className="space-y-2">
              {evidences.map((e) => (
                <EvidenceItem key={e.id} incidentId={ctx.incidentId} evidence={e} canWrite={ctx.canWriteEvidence} />
              ))}
            </ul>
          )}
          <div>
            <CommentList comments={comments} emptyText={null} />
            <div className="mt-2">
              <CommentBox incidentId={ctx.incidentId} hypothesisId={h.id} canWrite={ctx.canComment} />
            </div>
          </div>
          {node.children.length > 0 && (
            <div className="space-y-2 pl-4">
              {node.children.map((c) => (
                <HypothesisNode key={c.row.id} node={c} ctx={ctx} depth={depth + 1} />
              ))}
            </div>
          )}
          {ctx.canWrite && childType && (
            <NewHypothesis
              incidentId={ctx.incidentId}
              parent={h.id}
              type={childType}
              onDone={() => setExpanded(true)}
            />
          )}
        </div>
      )}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete Hypothesis ?"
        description="Its comments, evidence and sub-hypotheses are deleted too."
        busy={busyDelete}
        onConfirm={() => void remove()}
      />
    </div>
  );
}
