import { describe, expect, it } from 'vitest';
import { db } from '../../../api/postgrest';
import { applyHistoryFilters, historyFiltersOf, withHistoryFilter } from './historyFilters';

describe('send history filters', () => {
  it('reads status and resourceType from the URL and ignores values it does not know', () => {
    expect(historyFiltersOf(new URLSearchParams('status=repeated&resourceType=check'))).toEqual({
      status: 'repeated',
      resourceType: 'check',
    });
    expect(historyFiltersOf(new URLSearchParams('status=lost&resourceType=incident'))).toEqual({});
  });

  it('goes back to the first page when a filter changes, and drops an emptied filter', () => {
    const next = withHistoryFilter(new URLSearchParams('pageIndex=3&status=sent&id=x'), 'status', 'error');
    expect(next.toString()).toBe('status=error&id=x');
    expect(withHistoryFilter(next, 'status', undefined).toString()).toBe('id=x');
  });

  it('turns the filters into encoded equality filters on the query', () => {
    const q = applyHistoryFilters(db('notification_send_history_summary'), {
      status: 'silenced',
      resourceType: 'component',
    });
    expect(q.toString()).toBe(
      '/api/db/notification_send_history_summary?status=eq.silenced&resource_type=eq.component',
    );
  });
});
