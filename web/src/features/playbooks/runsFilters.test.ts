import { describe, expect, it } from 'vitest';
import { db } from '../../api/postgrest';
import { applyRunsFilter, readRunsFilter, runResource, runSortColumn, writeRunsFilter } from './runsFilters';

const qs = (s: string) => new URLSearchParams(s);

describe('playbook runs filters', () => {
  it('reads playbook and status from the query string, ignoring all, empty and unknown values', () => {
    expect(readRunsFilter(qs('playbook=p1&status=failed'))).toEqual({ playbook_id: 'p1', status: 'failed' });
    expect(readRunsFilter(qs('playbook=all&status=exploded'))).toEqual({});
    expect(readRunsFilter(qs('playbook=&status='))).toEqual({});
  });

  it('writes one filter, drops it for all, and restarts paging', () => {
    expect(writeRunsFilter(qs('pageIndex=2&range=now-7d'), 'status', 'failed').toString()).toBe(
      'range=now-7d&status=failed',
    );
    expect(writeRunsFilter(qs('status=failed&playbook=p1'), 'status', 'all').toString()).toBe('playbook=p1');
    expect(writeRunsFilter(qs('playbook=p1'), 'playbook', undefined).toString()).toBe('');
  });

  it('turns the filter into encoded /api/db filters', () => {
    const p = applyRunsFilter(db('playbook_run_list'), {
      playbook_id: 'p 1',
      config_id: 'c1',
      component_id: 'k1',
      check_id: 'x1',
      status: 'running',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-08T00:00:00.000Z',
    }).toSearchParams();
    expect(p.get('playbook_id')).toBe('eq.p 1');
    expect(p.get('config_id')).toBe('eq.c1');
    expect(p.get('component_id')).toBe('eq.k1');
    expect(p.get('check_id')).toBe('eq.x1');
    expect(p.get('status')).toBe('eq.running');
    expect(p.get('created_at')).toBe('gte.2026-01-01T00:00:00.000Z');
    expect(p.getAll('created_at')).toEqual(['gte.2026-01-01T00:00:00.000Z', 'lte.2026-01-08T00:00:00.000Z']);
    expect(applyRunsFilter(db('playbook_run_list'), {}).toSearchParams().toString()).toBe('');
  });

  it('sorts only on known columns, newest first otherwise', () => {
    expect(runSortColumn('duration_ms')).toBe('duration_ms');
    expect(runSortColumn('status')).toBe('status');
    expect(runSortColumn('playbooks')).toBe('created_at');
    expect(runSortColumn(undefined)).toBe('created_at');
  });

  it('links the resource of a run to its catalog item, component or health check', () => {
    const none = { config_id: null, component_id: null, check_id: null };
    expect(runResource({ ...none, config_id: 'c1' })?.href).toBe('/catalog/c1');
    expect(runResource({ ...none, component_id: 'k1' })?.href).toBe('/topology/k1');
    expect(runResource({ ...none, check_id: 'x 1' })).toEqual({
      kind: 'check',
      id: 'x 1',
      href: '/health?checkId=x+1',
    });
    expect(runResource(none)).toBeUndefined();
  });
});
