// The send history's filters in the query string (spec/3 §2): status and resourceType, with the
// details dialog's ?id=. A filter change starts again from the first page.
import { SEND_RESOURCE_TYPES, SEND_STATUSES, type SendStatus } from '@opsdeck/common/notifications';
import type { PostgrestQuery } from '../../../api/postgrest';

export type SendResourceType = (typeof SEND_RESOURCE_TYPES)[number];

export interface HistoryFilters {
  status?: SendStatus;
  resourceType?: SendResourceType;
}

const isStatus = (v: string | null): v is SendStatus => !!v && (SEND_STATUSES as readonly string[]).includes(v);
const isResourceType = (v: string | null): v is SendResourceType =>
  !!v && (SEND_RESOURCE_TYPES as readonly string[]).includes(v);

/** The filters a URL asks for; unknown values are ignored. */
export function historyFiltersOf(params: URLSearchParams): HistoryFilters {
  const status = params.get('status');
  const resourceType = params.get('resourceType');
  return {
    ...(isStatus(status) ? { status } : {}),
    ...(isResourceType(resourceType) ? { resourceType } : {}),
  };
}

/** The query string with one filter set (or removed when empty), back on the first page. */
export function withHistoryFilter(
  params: URLSearchParams,
  key: keyof HistoryFilters,
  value: string | undefined,
): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value) next.set(key, value);
  else next.delete(key);
  next.delete('pageIndex');
  return next;
}

/** Narrows a send history query to the filters. */
export function applyHistoryFilters<Row>(query: PostgrestQuery<Row>, filters: HistoryFilters): PostgrestQuery<Row> {
  if (filters.status) query.eq('status', filters.status);
  if (filters.resourceType) query.eq('resource_type', filters.resourceType);
  return query;
}
