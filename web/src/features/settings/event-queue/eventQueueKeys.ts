// Query keys of Settings → Event Queue, so Retry and Discard refresh exactly the summary.
import { settingsKeys } from '../keys';

export interface EventQueueQuery {
  /** Part of the event name to match (case-insensitive). */
  name?: string;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
  pageIndex: number;
  pageSize: number;
}

export const eventQueueKeys = {
  all: [...settingsKeys.all, 'event-queue'] as const,
  summary: (query: EventQueueQuery) => [...eventQueueKeys.all, 'summary', query] as const,
};
