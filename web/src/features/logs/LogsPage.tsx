// /logs (spec/2 §2.9): the logs of one component (or catalog item whose logs are known). Component,
// log selector (the first auto-selected), search (debounced 500 ms) and time range live in the query
// string (topologyId or configId, logsSelector, query, start); lines are read page by page from POST /api/logs, newest first,
// optionally tailed live; they can be downloaded, and selected lines linked to an incident.
import { FileText, ServerCrash } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { Alert } from '../../ui/alert';
import { EmptyState } from '../../ui/empty-state';
import { useDebouncedValue } from '../../ui/link-to-incident/useDebounced';
import { usePageHeader } from '../../ui/page-header';
import { Skeleton } from '../../ui/skeleton';
import { toast } from '../../ui/toast';
import { LogsTable } from './components/LogsTable';
import { LogsToolbar } from './components/LogsToolbar';
import { downloadFileName, logsToText } from './download';
import { logEvidenceDescription, logLinesEvidence } from './evidence';
import { logsApi, type LogsFilters } from './logsApi';
import {
  effectiveSelector,
  QUERY_DEBOUNCE_MS,
  readLogsParams,
  writeLogsParams,
  type LogsParamsChange,
} from './logsParams';
import { useLogLines } from './useLogLines';
import { useLogOwners } from './useLogOwners';

export const NO_LOGS = 'There are no logs matching the search query';
export const SELECT_COMPONENT = 'Please select a component to view the logs';
export const COMPONENTS_FAILED = 'Unable to load components!';
export const DOWNLOAD_FAILED = 'Failed to download logs';

function saveText(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The link's query as it is now (not as of the last render). */
const currentParams = () => new URLSearchParams(window.location.search);

export default function LogsPage() {
  const [params, setParams] = useSearchParams();
  const url = useMemo(() => readLogsParams(params), [params]);
  // Every change is written over the link as it is now: the updater's `prev` is the link of the
  // render that made the callback, so an effect of an older render (the auto-selected selector)
  // would otherwise put back an owner the dropdown had just changed.
  const change = useCallback(
    (c: LogsParamsChange) => setParams(writeLogsParams(currentParams(), c), { replace: 'query' in c }),
    [setParams],
  );

  // The search box: typed text reaches the link (and the server) once typing pauses for 500 ms.
  const [search, setSearch] = useState(url.query ?? '');
  const debounced = useDebouncedValue(search, QUERY_DEBOUNCE_MS);
  useEffect(() => {
    if ((debounced.trim() || undefined) !== url.query) change({ query: debounced });
    // Only the debounced text drives the link.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  // A link that changes the query (back, forward) puts its text in the box.
  const [seenQuery, setSeenQuery] = useState(url.query);
  if (url.query !== seenQuery) {
    setSeenQuery(url.query);
    if ((url.query ?? '') !== debounced.trim()) setSearch(url.query ?? '');
  }

  // The chosen component or catalog item, also when a link names one beyond the dropdown's list.
  const owners = useLogOwners(url);
  const component = owners.owner;
  const ownerId = url.topologyId ?? url.configId;

  const selectorNames = useMemo(() => (component?.logs ?? []).map((s) => s.name), [component]);
  const selector = effectiveSelector(selectorNames, url.logsSelector);
  // The auto-selected selector goes into the link too, so the link says what is shown.
  useEffect(() => {
    if (!component || !selector || selector === url.logsSelector) return;
    // Only for the owner still in the link (another may have been chosen since this render).
    const now = currentParams();
    if ((now.get('topologyId') ?? undefined) !== url.topologyId || (now.get('configId') ?? undefined) !== url.configId)
      return;
    setParams(writeLogsParams(now, { logsSelector: selector }), { replace: true });
  }, [component, selector, url.logsSelector, url.topologyId, url.configId, setParams]);

  const filters = useMemo<LogsFilters | undefined>(
    () =>
      ownerId && component
        ? {
            ...(url.topologyId ? { topologyId: url.topologyId } : { configId: url.configId }),
            selector,
            query: url.query,
            range: url.range,
          }
        : undefined,
    [ownerId, url.topologyId, url.configId, url.query, url.range, selector, component],
  );

  const [live, setLive] = useState(false);
  const logs = useLogLines(filters, live);

  // A new result set starts without a selection.
  const [selection, setSelection] = useState<{ key: string; ids: Set<string> }>({ key: '', ids: new Set() });
  const filtersKey = JSON.stringify(filters ?? null);
  const selected = useMemo(
    () => (selection.key === filtersKey ? selection.ids : new Set<string>()),
    [selection, filtersKey],
  );
  const setSelected = useCallback((ids: Set<string>) => setSelection({ key: filtersKey, ids }), [filtersKey]);

  const evidence = useMemo(() => {
    if (!selected.size || !ownerId) return undefined;
    return {
      type: 'log' as const,
      ...(url.topologyId ? { component_id: url.topologyId } : { config_id: url.configId }),
      description: logEvidenceDescription(selected.size, component?.name, selector),
      evidence: { ...logLinesEvidence(logs.lines, selected) },
    };
  }, [selected, logs.lines, ownerId, url.topologyId, url.configId, component?.name, selector]);

  const [downloading, setDownloading] = useState(false);
  async function download() {
    if (!filters) return;
    setDownloading(true);
    try {
      const lines = await logsApi.all(filters);
      saveText(logsToText(lines), downloadFileName(component?.name, selector, new Date()));
    } catch (e) {
      console.error(DOWNLOAD_FAILED, e);
      toast.error(DOWNLOAD_FAILED);
    } finally {
      setDownloading(false);
    }
  }

  usePageHeader({
    onRefresh: () => {
      owners.refetch();
      logs.refetch();
    },
    loading: owners.fetching || logs.isFetching,
  });

  let placeholder: ReactNode = undefined;
  if (owners.failed) placeholder = <EmptyState icon={ServerCrash} title={COMPONENTS_FAILED} />;
  else if (!ownerId || owners.notFound) placeholder = <EmptyState icon={FileText} title={SELECT_COMPONENT} />;
  else if (!filters || logs.isPending)
    placeholder = (
      <div className="space-y-3 p-4" data-testid="logs-loading">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-4 w-full" />
        ))}
      </div>
    );
  else if (logs.error && !logs.lines.length)
    placeholder = (
      <div className="p-4">
        <Alert tone="error">{errorMessage(logs.error)}</Alert>
      </div>
    );
  else if (!logs.lines.length) placeholder = <EmptyState icon={FileText} title={NO_LOGS} />;

  const count = logs.lines.length;
  return (
    <div className="space-y-3">
      <LogsToolbar
        components={owners.components}
        configs={owners.configs}
        componentsLoading={owners.loading}
        owner={
          url.topologyId
            ? { kind: 'component', id: url.topologyId }
            : url.configId
              ? { kind: 'config', id: url.configId }
              : undefined
        }
        onOwnerChange={(o) => change(o?.kind === 'config' ? { configId: o.id } : { topologyId: o?.id })}
        selectorNames={selectorNames}
        selector={selector}
        onSelectorChange={(name) => change({ logsSelector: name })}
        search={search}
        onSearchChange={setSearch}
        range={url.range}
        onRangeChange={(range) => change({ range })}
        live={live}
        onLiveChange={setLive}
        canDownload={!!filters && count > 0}
        downloading={downloading}
        onDownload={() => void download()}
        selectedCount={selected.size}
        evidence={evidence}
      />
      {logs.tailError !== undefined && <Alert tone="warning">Live tail: {errorMessage(logs.tailError)}</Alert>}
      {logs.error !== null && count > 0 && <Alert tone="error">{errorMessage(logs.error)}</Alert>}
      {logs.truncated && <Alert tone="warning">{logs.truncated}</Alert>}
      <LogsTable
        lines={logs.lines}
        selected={selected}
        onSelectedChange={setSelected}
        hasNextPage={logs.hasNextPage && !placeholder}
        isFetchingNextPage={logs.isFetchingNextPage}
        fetchNextPage={logs.fetchNextPage}
        placeholder={placeholder}
        footer={
          count > 0
            ? `${count}${logs.total !== undefined ? ` of ${logs.total}` : ''} line${count === 1 ? '' : 's'}${live ? ' · live' : ''}`
            : null
        }
      />
    </div>
  );
}
