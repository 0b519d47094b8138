// Settings → Event Queue: the per-name summary (/api/db/event_queue_summary, filtered, sorted and
// paged on the server, never cached) and an admin's Retry / Discard of failed events
// (/api/event-queue, docs/api.md "Event queue").
import { api } from '../../../api/client';
import { containsPattern, db } from '../../../api/postgrest';
import type { EventQueueQuery } from './eventQueueKeys';

export interface EventQueueSummaryRow {
  name: string;
  /** Waiting for their first handling (or put back by Retry). */
  pending: number;
  /** Their last handling failed: retried automatically until the attempts run out. */
  failed: number;
  average_attempts: number | null;
  first_failure: string | null;
  last_failure: string | null;
  /** When the router next retries one of the failed events; null once they all gave up. */
  next_attempt: string | null;
  most_common_error: string | null;
}

export type EventQueueAction = 'retry' | 'discard';

/** Columns the summary can be sorted by (every column of the table). */
export const SORTABLE = new Set([
  'name',
  'pending',
  'failed',
  'average_attempts',
  'first_failure',
  'last_failure',
  'most_common_error',
]);

export const eventQueueApi = {
  summary(query: EventQueueQuery, signal?: AbortSignal) {
    const q = db<EventQueueSummaryRow>('event_queue_summary').select(
      'name,pending,failed,average_attempts,first_failure,last_failure,next_attempt,most_common_error',
    );
    if (query.name) q.ilike('name', containsPattern(query.name));
    if (query.sortBy && SORTABLE.has(query.sortBy))
      q.order(query.sortBy, { ascending: query.sortOrder === 'asc', nulls: 'last' });
    // A stable order for equal values and pages.
    if (query.sortBy !== 'name') q.order('name');
    return q.page(query.pageIndex, query.pageSize).list(signal);
  },
  /** Failed events of `name` back to pending (retry) or deleted (discard); answers how many. */
  act: (action: EventQueueAction, name: string) =>
    api.post<{ name: string; count: number }>(`/api/event-queue/${action}`, { name }),
};
