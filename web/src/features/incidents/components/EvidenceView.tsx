// One piece of evidence, shown by type (spec/2 §3): a check (name, status, link), a config
// (name and an excerpt with 3 context lines around the selected lines), a config change
// (summary), an insight (message), a topology component (card), log lines, or a comment.
import { Link } from 'react-router';
import { cn } from '../../../ui/cn';
import { formatDateTime } from '../../../ui/format';
import { excerpt, type StoredLines } from '../excerpt';
import type { EvidenceRow } from '../types';
import { HealthMark } from './HealthMark';
import { TopologyCard } from './TopologyCard';

function Excerpt({ lines, selected }: { lines: unknown; selected: unknown }) {
  if (!lines || typeof lines !== 'object') return null;
  const groups = excerpt(lines as StoredLines, selected);
  if (!groups.length) return null;
  return (
    <pre className="mt-1.5 overflow-x-auto rounded-md border border-border bg-surface-muted text-[12px] leading-5">
      {groups.map((g, i) => (
        <div key={i} className={cn(i > 0 && 'border-t border-dashed border-border')}>
          {g.map((l) => (
            <div key={l.number} className={cn('flex px-2', l.selected && 'bg-warning-soft')}>
              <span className="w-10 shrink-0 select-none pr-2 text-right text-subtle">{l.number}</span>
              <span className="whitespace-pre">{l.text}</span>
            </div>
          ))}
        </div>
      ))}
    </pre>
  );
}

function logLines(payload: Record<string, unknown> | null): string[] {
  const lines = payload?.lines;
  if (!Array.isArray(lines)) return [];
  return lines.map((l) => {
    if (typeof l === 'string') return l;
    if (l && typeof l === 'object') {
      const o = l as Record<string, unknown>;
      const time = typeof o.timestamp === 'string' ? `${formatDateTime(o.timestamp)} ` : '';
      return `${time}${String(o.message ?? JSON.stringify(o))}`;
    }
    return String(l);
  });
}

export function EvidenceView({ evidence }: { evidence: EvidenceRow }) {
  const e = evidence;
  const payload = e.evidence;
  switch (e.type.toLowerCase()) {
    case 'check':
      return (
        <div className="flex flex-wrap items-center gap-2" data-testid="evidence-check">
          {e.check ? (
            <Link to={`/health?checkId=${e.check.id}`} className="font-medium text-primary hover:underline">
              {e.check.name}
            </Link>
          ) : (
            <span className="text-muted">Check no longer exists</span>
          )}
          {e.check && <HealthMark health={e.check.status} />}
          {e.description && e.description !== e.check?.name && (
            <span className="text-[12.5px] text-muted">{e.description}</span>
          )}
        </div>
      );
    case 'config':
      return (
        <div data-testid="evidence-config">
          {e.config ? (
            <Link to={`/catalog/${e.config.id}`} className="font-medium text-primary hover:underline">
              {e.config.name ?? e.config.type}
            </Link>
          ) : (
            <span className="font-medium">{e.description}</span>
          )}
          <Excerpt lines={payload?.lines} selected={payload?.selected_lines} />
        </div>
      );
    case 'config_change':
      return (
        <div data-testid="evidence-config-change">
          <span className="font-medium">
            {e.config_change?.summary || e.config_change?.change_type || e.description}
          </span>
        </div>
      );
    case 'config_analysis':
      return (
        <div data-testid="evidence-config-analysis">
          <span className="font-medium">{e.config_analysis?.message || e.description}</span>
          {e.config_analysis && (
            <span className="ml-2 text-[12px] text-muted">
              {e.config_analysis.analyzer} · {e.config_analysis.status}
            </span>
          )}
        </div>
      );
    case 'topology':
      return e.component ? (
        <TopologyCard component={e.component} />
      ) : (
        <span className="text-muted">{e.description}</span>
      );
    case 'log': {
      const lines = logLines(payload);
      return (
        <div data-testid="evidence-log">
          {e.description && <div className="font-medium">{e.description}</div>}
          {lines.length > 0 && (
            <pre className="mt-1.5 max-h-48 overflow-auto rounded-md border border-border bg-surface-muted px-2 py-1 text-[12px] leading-5">
              {lines.join('\n')}
            </pre>
          )}
        </div>
      );
    }
    default:
      return (
        <div className="whitespace-pre-wrap" data-testid="evidence-comment">
          {e.description}
        </div>
      );
  }
}

/** A one-line name for an evidence (dialogs, definition of done). */
export function evidenceTitle(e: EvidenceRow): string {
  return (
    e.check?.name ??
    e.component?.name ??
    e.config?.name ??
    e.config_change?.summary ??
    e.config_analysis?.message ??
    e.description ??
    e.type
  );
}
