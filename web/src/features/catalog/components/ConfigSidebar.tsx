// The item's details sidebar (spec/2 §2.2): type, class, status, health ('Last status' once the
// item is deleted), scraper, agent, dates, cost, tags and labels.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../ui/badge';
import { formatDateTime } from '../../../ui/format';
import type { ConfigDetail } from '../types';
import { Cost1dCell, CostCell, DateCell, HealthLabel } from './Cells';

function Row({ label, children }: { label: string; children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null;
  return (
    <div className="grid grid-cols-[110px_minmax(0,1fr)] gap-2 py-1.5 text-[13px]">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function KeyValues({ values }: { values: Record<string, string> | null | undefined }) {
  const entries = Object.entries(values ?? {});
  if (!entries.length) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {entries.map(([k, v]) => (
        <Badge key={k} className="max-w-full truncate">
          {k}={v}
        </Badge>
      ))}
    </span>
  );
}

export function ConfigSidebar({ item }: { item: ConfigDetail }) {
  const hasCost = item.cost_total_30d !== null && item.cost_total_30d !== undefined;
  return (
    <aside aria-label="Details" className="rounded-lg border border-border bg-surface p-4" data-testid="config-sidebar">
      <h2 className="mb-2 text-[13px] font-semibold uppercase tracking-wide text-muted">Details</h2>
      <dl className="divide-y divide-border">
        <Row label="Name">{item.name}</Row>
        <Row label="Type">
          <Link className="text-primary hover:underline" to={`/catalog?configType=${encodeURIComponent(item.type)}`}>
            {item.type}
          </Link>
        </Row>
        <Row label="Class">{item.config_class}</Row>
        <Row label="Status">{item.status}</Row>
        <Row label={item.deleted_at ? 'Last status' : 'Health'}>
          <HealthLabel health={item.health} />
        </Row>
        <Row label="Description">{item.description}</Row>
        <Row label="Scraper">
          {item.config_scrapers && (
            <Link className="text-primary hover:underline" to={`/catalog/scrapers/${item.config_scrapers.id}`}>
              {item.config_scrapers.name}
            </Link>
          )}
        </Row>
        <Row label="Agent">{item.agent?.name}</Row>
        <Row label="External ID">
          <span className="font-mono text-[12px]">{item.external_id}</span>
        </Row>
        <Row label="Created">
          <DateCell value={item.created_at} />
        </Row>
        <Row label="Updated">
          <DateCell value={item.updated_at} />
        </Row>
        <Row label="Last scraped">
          <DateCell value={item.last_scraped_time} relative />
        </Row>
        <Row label="Deleted">
          {item.deleted_at
            ? `${formatDateTime(item.deleted_at)}${item.delete_reason ? ` (${item.delete_reason})` : ''}`
            : null}
        </Row>
        {hasCost && (
          <>
            <Row label="Cost (1d)">
              <Cost1dCell cost1d={item.cost_total_1d} cost30d={item.cost_total_30d} />
            </Row>
            <Row label="Cost (7d)">
              <CostCell value={item.cost_total_7d} />
            </Row>
            <Row label="Cost (30d)">
              <CostCell value={item.cost_total_30d} />
            </Row>
          </>
        )}
        <Row label="Tags">
          <KeyValues values={item.tags} />
        </Row>
        <Row label="Labels">
          <KeyValues values={item.labels} />
        </Row>
      </dl>
    </aside>
  );
}
