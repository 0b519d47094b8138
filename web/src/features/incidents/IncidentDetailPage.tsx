// /incidents/{id} (spec/2 §2.8): the header (status dropdown limited to the allowed moves, the
// Close/Reopen toggle), topology cards of topology evidence, the Comments and Action Plan tabs,
// and the collapsible right panel (Details with severity, type and responders; Definition of
// done; Changelog), 20rem wide or 30rem at xl. Moving to mitigated or resolved first asks for
// contributing factors. ?comments=true expands every hypothesis.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, PanelRightClose, PanelRightOpen, SearchX } from 'lucide-react';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { DISPLAY_DEFAULT_SEVERITY, type IncidentStatus } from '@opsdeck/common/incidents';
import { errorMessage } from '../../api/client';
import { useCan } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { EmptyState } from '../../ui/empty-state';
import { formatDateTime } from '../../ui/format';
import { Select } from '../../ui/input';
import {
  allowedStatusMoves,
  asksForDefinitionOfDone,
  headerToggle,
  INCIDENT_SEVERITIES,
  INCIDENT_TYPES,
  isIncidentStatus,
  SEVERITY_LABELS,
  STATUS_LABELS,
  TYPE_LABELS,
} from '../../ui/link-to-incident/incidentOptions';
import { useDebouncedCallback } from '../../ui/link-to-incident/useDebounced';
import { usePageHeader } from '../../ui/page-header';
import { Skeleton } from '../../ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { toast } from '../../ui/toast';
import { ActionPlan } from './components/ActionPlan';
import { Avatar } from './components/Avatar';
import { SeverityLabel, StatusBadge } from './components/Badges';
import { Changelog } from './components/Changelog';
import { CommentBox, CommentList } from './components/Comments';
import { ContributingFactorsDialog } from './components/ContributingFactorsDialog';
import { DefinitionOfDone } from './components/DefinitionOfDone';
import { Responders } from './components/Responders';
import { TopologyCard } from './components/TopologyCard';
import { useIncidentRefresh } from './components/useIncidentRefresh';
import { incidentsApi } from './incidentsApi';
import { incidentKeys } from './keys';
import type { IncidentRow } from './types';

export const INCIDENT_NOT_FOUND = 'Incident not found';
export const STATUS_UPDATED = 'Incident status updated successfully';
export const STATUS_UPDATE_FAILED = 'Incident status updated failed';
export const FIELD_DEBOUNCE_MS = 500;

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const [open, setOpen] = useState(true);
  return (
    <section className="border-b border-border" data-testid={testId}>
      <button
        type="button"
        className="flex w-full cursor-pointer items-center gap-1.5 px-4 py-3 text-left text-[13px] font-semibold text-foreground"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {open ? <ChevronDown className="size-4" aria-hidden /> : <ChevronRight className="size-4" aria-hidden />}
        {title}
      </button>
      {open && <div className="px-4 pb-4">{children}</div>}
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] items-center gap-2 py-1 text-[13px]">
      <span className="text-muted">{label}</span>
      <div className="min-w-0 text-foreground">{children}</div>
    </div>
  );
}

export default function IncidentDetailPage() {
  const { id = '' } = useParams();
  const incident = useQuery({
    queryKey: incidentKeys.incident(id),
    queryFn: ({ signal }) => incidentsApi.incident(id, signal),
    staleTime: 0,
    meta: { silent: true },
  });

  if (incident.isPending)
    return (
      <div className="space-y-4">
        <Skeleton className="h-10 w-96" />
        <Skeleton className="h-64" />
      </div>
    );
  if (incident.isError)
    return (
      <div>
        <Alert tone="error">{errorMessage(incident.error)}</Alert>
      </div>
    );
  if (!incident.data) return <EmptyState icon={SearchX} title={INCIDENT_NOT_FOUND} />;
  return <IncidentDetail incident={incident.data} />;
}

function IncidentDetail({ incident }: { incident: IncidentRow }) {
  const id = incident.id;
  const [params] = useSearchParams();
  const expandAll = params.get('comments') === 'true';
  const refresh = useIncidentRefresh(id);
  const canWrite = useCan('incident', 'write');
  const canWriteEvidence = useCan('evidences', 'write');
  const canComment = useCan('comments', 'write');
  const canWriteResponders = useCan('responder', 'write');
  const [panelOpen, setPanelOpen] = useState(true);
  const [askingStatus, setAskingStatus] = useState<IncidentStatus>();

  const hypotheses = useQuery({
    queryKey: incidentKeys.hypotheses(id),
    queryFn: ({ signal }) => incidentsApi.hypotheses(id, signal),
    staleTime: 0,
  });
  const comments = useQuery({
    queryKey: incidentKeys.comments(id),
    queryFn: ({ signal }) => incidentsApi.comments(id, signal),
    staleTime: 0,
  });
  const responders = useQuery({
    queryKey: incidentKeys.responders(id),
    queryFn: ({ signal }) => incidentsApi.responders(id, signal),
    staleTime: 0,
  });
  const history = useQuery({
    queryKey: incidentKeys.history(id),
    queryFn: ({ signal }) => incidentsApi.history(id, signal),
    staleTime: 0,
  });

  const onRefresh = useCallback(() => refresh('incident', 'hypotheses', 'comments', 'responders'), [refresh]);
  usePageHeader({
    title: `${incident.incident_id} · ${incident.title}`,
    onRefresh,
    loading: hypotheses.isFetching || comments.isFetching,
  });

  const evidences = useMemo(() => (hypotheses.data ?? []).flatMap((h) => h.evidences ?? []), [hypotheses.data]);
  const root = hypotheses.data?.find((h) => h.type === 'root' && !h.parent_id) ?? hypotheses.data?.[0];
  const topology = useMemo(() => {
    const seen = new Map<string, NonNullable<(typeof evidences)[number]['component']>>();
    for (const e of evidences)
      if (e.type.toLowerCase() === 'topology' && e.component) seen.set(e.component.id, e.component);
    return [...seen.values()];
  }, [evidences]);

  const status: IncidentStatus = isIncidentStatus(incident.status) ? incident.status : 'open';
  const toggle = headerToggle(status);

  const updateStatus = useMutation({
    mutationFn: async ({ to, mark }: { to: IncidentStatus; mark?: string[] }) => {
      if (mark?.length) await incidentsApi.markDefinitionOfDone(mark);
      await incidentsApi.updateIncident(id, { status: to });
    },
    onSuccess: () => {
      toast.success(STATUS_UPDATED);
      setAskingStatus(undefined);
      refresh('incident', 'hypotheses');
    },
    onError: (e) => {
      console.error(STATUS_UPDATE_FAILED, e);
      toast.error(STATUS_UPDATE_FAILED);
      setAskingStatus(undefined);
    },
  });

  function chooseStatus(to: IncidentStatus) {
    if (to === status) return;
    if (asksForDefinitionOfDone(to)) setAskingStatus(to);
    else updateStatus.mutate({ to });
  }

  const [fields, setFields] = useState({ severity: incident.severity, type: incident.type });
  const saveFields = useMutation({
    mutationFn: (values: { severity: string; type: string }) => incidentsApi.updateIncident(id, values),
    onSuccess: () => refresh('incident'),
    onError: (e) => toast.error(errorMessage(e)),
  });
  const saveFieldsLater = useDebouncedCallback(
    (values: { severity: string; type: string }) => saveFields.mutate(values),
    FIELD_DEBOUNCE_MS,
  );
  const changeField = (key: 'severity' | 'type', value: string) => {
    const next = { ...fields, [key]: value };
    setFields(next);
    saveFieldsLater(next);
  };

  return (
    <div className="flex items-start gap-5">
      <div className="min-w-0 flex-1 space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          {/* The Id and title are the page header's title. */}
          <StatusBadge status={status} />
          <div className="ml-auto flex items-center gap-2">
            {canWrite && (
              <>
                <Select
                  aria-label="Status"
                  className="h-8 w-40 text-[13px]"
                  value={status}
                  disabled={updateStatus.isPending}
                  onChange={(e) => chooseStatus(e.target.value as IncidentStatus)}
                >
                  {allowedStatusMoves(status).map((s) => (
                    <option key={s} value={s}>
                      {STATUS_LABELS[s]}
                    </option>
                  ))}
                </Select>
                <Button
                  variant="outline"
                  size="sm"
                  loading={updateStatus.isPending && !askingStatus}
                  onClick={() => updateStatus.mutate({ to: toggle.to })}
                >
                  {toggle.label}
                </Button>
              </>
            )}
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label={panelOpen ? 'Hide details panel' : 'Show details panel'}
              onClick={() => setPanelOpen(!panelOpen)}
            >
              {panelOpen ? <PanelRightClose className="size-4" /> : <PanelRightOpen className="size-4" />}
            </Button>
          </div>
        </div>
        {incident.description && <p className="text-[13.5px] text-muted">{incident.description}</p>}

        {topology.length > 0 && (
          <div className="flex flex-wrap gap-2" data-testid="topology-cards">
            {topology.map((c) => (
              <TopologyCard key={c.id} component={c} />
            ))}
          </div>
        )}

        <Tabs defaultValue="comments">
          <TabsList>
            <TabsTrigger value="comments">Comments</TabsTrigger>
            <TabsTrigger value="action-plan">Action Plan</TabsTrigger>
          </TabsList>
          <TabsContent value="comments" className="pt-4">
            <div className="space-y-4">
              {comments.isError && <Alert tone="error">{errorMessage(comments.error)}</Alert>}
              <CommentList comments={comments.data ?? []} />
              <CommentBox incidentId={id} hypothesisId={root?.id} canWrite={canComment} />
            </div>
          </TabsContent>
          <TabsContent value="action-plan" className="pt-4">
            {hypotheses.isError ? (
              <Alert tone="error">{errorMessage(hypotheses.error)}</Alert>
            ) : hypotheses.isPending ? (
              <Skeleton className="h-32" />
            ) : (
              <ActionPlan
                incidentId={id}
                hypotheses={hypotheses.data}
                comments={comments.data ?? []}
                expandAll={expandAll}
                canWrite={canWrite}
                canWriteEvidence={canWriteEvidence}
                canComment={canComment}
              />
            )}
          </TabsContent>
        </Tabs>
      </div>

      <aside
        className={cn(
          'shrink-0 overflow-hidden rounded-lg border border-border bg-surface shadow-card',
          panelOpen ? 'w-[20rem] xl:w-[30rem]' : 'hidden',
        )}
        data-testid="incident-panel"
      >
        <Section title="Details" testId="incident-details">
          <Row label="Id">{incident.incident_id}</Row>
          <Row label="Status">
            <StatusBadge status={status} />
          </Row>
          <Row label="Severity">
            {canWrite ? (
              <Select
                aria-label="Severity"
                className="h-8 text-[13px]"
                value={fields.severity}
                onChange={(e) => changeField('severity', e.target.value)}
              >
                {INCIDENT_SEVERITIES.map((s) => (
                  <option key={s} value={s}>
                    {SEVERITY_LABELS[s]}
                  </option>
                ))}
              </Select>
            ) : fields.severity ? (
              <SeverityLabel severity={fields.severity} />
            ) : (
              DISPLAY_DEFAULT_SEVERITY
            )}
          </Row>
          <Row label="Type">
            {canWrite ? (
              <Select
                aria-label="Type"
                className="h-8 text-[13px]"
                value={fields.type}
                onChange={(e) => changeField('type', e.target.value)}
              >
                {INCIDENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {TYPE_LABELS[t]}
                  </option>
                ))}
              </Select>
            ) : (
              (TYPE_LABELS[fields.type as keyof typeof TYPE_LABELS] ?? fields.type)
            )}
          </Row>
          {[
            ['Commander', incident.commander],
            ['Communicator', incident.communicator],
            ['Created by', incident.creator],
          ].map(([label, person]) =>
            person && typeof person === 'object' ? (
              <Row key={label as string} label={label as string}>
                <span className="inline-flex items-center gap-1.5">
                  <Avatar name={person.name} src={person.avatar} /> {person.name}
                </span>
              </Row>
            ) : null,
          )}
          <Row label="Created">{formatDateTime(incident.created_at)}</Row>
          <div className="mt-3">
            <div className="mb-1.5 text-[12px] font-semibold uppercase tracking-wide text-muted">Responders</div>
            <Responders incidentId={id} responders={responders.data ?? []} canWrite={canWriteResponders} />
          </div>
        </Section>
        <Section title="Definition of done" testId="dod-section">
          <DefinitionOfDone
            incidentId={id}
            evidences={evidences}
            rootHypothesisId={root?.id}
            loading={hypotheses.isPending}
            canWrite={canWriteEvidence}
          />
        </Section>
        <Section title="Changelog" testId="changelog-section">
          <Changelog rows={history.data ?? []} />
        </Section>
      </aside>

      <ContributingFactorsDialog
        open={!!askingStatus}
        evidences={evidences}
        busy={updateStatus.isPending}
        onSubmit={(ids) => askingStatus && updateStatus.mutate({ to: askingStatus, mark: ids })}
        onSkip={() => askingStatus && updateStatus.mutate({ to: askingStatus })}
        onCancel={() => setAskingStatus(undefined)}
      />
    </div>
  );
}
