// The Changelog section: the incident's history as the server wrote it, newest first.
import { INCIDENT_HISTORY_ALIASES } from '@opsdeck/common/incidents';
import { formatAge, formatDateTime } from '../../../ui/format';
import { plainText } from '../mentions';
import type { HistoryRow } from '../types';
import { Avatar } from './Avatar';

const EVENT_TEXT: Record<string, string> = {
  'incident.created': 'created the incident',
  'incident.status_updated': 'changed the status',
  'responder.created': 'added a responder',
  'evidence.created': 'added evidence',
  'evidence.done_definition_added': 'added evidence to the definition of done',
  'evidence.done': 'marked evidence done',
  'responder.commented': 'commented',
  'hypothesis.created': 'created a hypothesis',
  'hypothesis.status_updated': 'changed a hypothesis status',
};

export function historyText(row: HistoryRow): string {
  const type = INCIDENT_HISTORY_ALIASES[row.type] ?? row.type;
  return EVENT_TEXT[type] ?? type;
}

export function Changelog({ rows }: { rows: HistoryRow[] }) {
  if (!rows.length) return <p className="text-[13px] text-muted">No changes yet</p>;
  return (
    <ol className="space-y-2.5" data-testid="changelog">
      {rows.map((r) => {
        const target =
          r.hypothesis?.title ?? r.evidence?.description ?? r.responder?.team?.name ?? r.responder?.person?.name;
        return (
          <li key={r.id} className="flex gap-2 text-[12.5px]" data-testid="history-entry" data-type={r.type}>
            <Avatar name={r.creator?.name ?? 'System'} src={r.creator?.avatar} />
            <div className="min-w-0">
              <span className="font-medium text-foreground">{r.creator?.name ?? 'System'}</span>{' '}
              <span className="text-muted">{historyText(r)}</span>
              {r.description && <div className="text-foreground">{plainText(r.description)}</div>}
              {!r.description && target && <div className="truncate text-foreground">{target}</div>}
              <div className="text-subtle" title={formatDateTime(r.created_at)}>
                {formatAge(r.created_at)}
              </div>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
