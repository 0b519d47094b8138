import { describe, expect, it } from 'vitest';
import { applyFilters, listSelect, readFilters, writeFilter } from './filters';

const qs = (s: string) => new URLSearchParams(s);

describe('incident list filters', () => {
  it('defaults the status to open and drops all or empty values', () => {
    expect(readFilters(qs(''))).toEqual({ status: 'open' });
    expect(readFilters(qs('status=all&type=all&severity=&owner=p1'))).toEqual({ owner: 'p1' });
    expect(readFilters(qs('status=closed&search=%20db%20'))).toEqual({ status: 'closed', search: 'db' });
  });

  it('keeps status=all in the link so the open default does not come back, and restarts paging', () => {
    expect(writeFilter(qs('pageIndex=3'), 'status', 'all').toString()).toBe('status=all');
    expect(writeFilter(qs('status=all'), 'status', 'open').toString()).toBe('');
    expect(writeFilter(qs('type=cost'), 'type', 'all').toString()).toBe('');
    expect(writeFilter(qs(''), 'severity', 'high').toString()).toBe('severity=high');
  });

  it('turns filters into encoded /api/db filters', () => {
    const p = applyFilters(qs('limit=50'), {
      status: 'open',
      severity: 'high',
      type: 'cost',
      owner: 'u1',
      component: 'c1',
      search: 'db, down',
    });
    expect(p.get('status')).toBe('eq.open');
    expect(p.get('severity')).toBe('eq.high');
    expect(p.get('type')).toBe('eq.cost');
    expect(p.get('created_by')).toBe('eq.u1');
    expect(p.get('component_ids')).toBe('cs.{c1}');
    expect(p.get('or')).toBe(
      '(title.ilike."*db, down*",incident_id.ilike."*db, down*",description.ilike."*db, down*")',
    );
    expect(p.get('limit')).toBe('50');
  });

  it('never joins the evidence: the component filter reads component_ids', () => {
    expect(listSelect()).not.toContain('!inner');
    expect(listSelect()).toContain('responders(');
  });
});
