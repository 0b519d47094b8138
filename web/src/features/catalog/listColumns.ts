// Which columns of the flat catalog list have something to show on the current page.
import type { ConfigListRow } from './types';

const COST_COLUMNS = ['cost_total_1d', 'cost_total_7d', 'cost_total_30d'] as const;
const hasValue = (v: unknown) => v !== null && v !== undefined && v !== '';

/** Columns with nothing to show on this page: the type when one type is listed, cost and agent when no row has them. */
export function hiddenListColumns(rows: readonly ConfigListRow[] | undefined, singleType: boolean): Set<string> {
  const hidden = new Set<string>();
  if (singleType) hidden.add('type');
  if (rows && rows.length) {
    if (!rows.some((r) => COST_COLUMNS.some((c) => hasValue(r[c]) && Number(r[c]) !== 0)))
      COST_COLUMNS.forEach((c) => hidden.add(c));
    if (!rows.some((r) => r.agent)) hidden.add('agent');
  }
  return hidden;
}
