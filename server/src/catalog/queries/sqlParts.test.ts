// The catalog query building blocks: list filters, item fields, severities, times and the SQL the
// summary and changes requests turn into (parameters bound, never spliced).
import { describe, expect, it } from 'vitest';
import { changesSql } from './changes.js';
import {
  containsPattern,
  itemField,
  listCondition,
  Params,
  parseListFilter,
  parseTimeValue,
  QueryInputError,
  severitiesAtLeast,
  sinceMinutes,
} from './sqlParts.js';
import { summarySql } from './summary.js';

describe('list filters', () => {
  it('splits comma lists into included and excluded values', () => {
    expect(parseListFilter('a, b,!c,,!')).toEqual({ include: ['a', 'b'], exclude: ['c'] });
    expect(parseListFilter(['x,!y', 'z'])).toEqual({ include: ['x', 'z'], exclude: ['y'] });
  });

  it('binds the values and lets NULL through an exclusion', () => {
    const p = new Params();
    expect(listCondition('ci.type', { include: ['a'], exclude: ['b', 'c'] }, p)).toEqual([
      'ci.type = $1',
      '(ci.type IS NULL OR ci.type <> ALL($2::text[]))',
    ]);
    expect(p.values).toEqual(['a', ['b', 'c']]);
  });
});

describe('item fields', () => {
  it('maps columns, the agent and tag or label keys (keys bound as parameters)', () => {
    const p = new Params();
    expect(itemField('type', p, 'groupBy').expr).toBe('ci.type');
    expect(itemField('agent', p, 'groupBy')).toEqual({ expr: 'ag.name', agent: true });
    expect(itemField('tags.namespace', p, 'groupBy').expr).toBe('(ci.tags ->> $1::text)');
    expect(itemField('labels.app.kubernetes.io/name', p, 'groupBy').expr).toBe('(ci.labels ->> $2::text)');
    expect(p.values).toEqual(['namespace', 'app.kubernetes.io/name']);
  });

  it('refuses anything else with the field name in the message', () => {
    expect(() => itemField('config', new Params(), 'groupBy')).toThrow(/groupBy: "config" is not a field/);
    expect(() => itemField("tags.x'; drop", new Params(), 'filter')).toThrow(QueryInputError);
  });
});

describe('severities and times', () => {
  it('lists the severities at or above a minimum', () => {
    expect(severitiesAtLeast('high')).toEqual(['high', 'blocker', 'critical']);
    expect(severitiesAtLeast('info')).toHaveLength(7);
    expect(() => severitiesAtLeast('bad')).toThrow(/"bad" is not a severity/);
  });

  it('reads relative times, durations, ISO dates and epoch milliseconds', () => {
    const now = new Date('2025-03-10T12:00:00Z');
    expect(parseTimeValue('now-2d', 'from', now).getTime()).toBe(now.getTime() - 2 * 86_400_000);
    expect(parseTimeValue('30m', 'from', now).toISOString()).toBe('2025-03-10T11:30:00.000Z');
    expect(parseTimeValue('2025-03-01T00:00:00Z', 'from', now).toISOString()).toBe('2025-03-01T00:00:00.000Z');
    expect(parseTimeValue('0', 'from', now).getTime()).toBe(0);
    expect(() => parseTimeValue('yesterday', 'from', now)).toThrow(/from: "yesterday" is not a time/);
    expect(() => parseTimeValue('now-2x', 'to', now)).toThrow(/to:/);
    // Past year 9999 the database would fail on it (a 500): refused here.
    for (const far of ['99999999999999999', '8000000000000000', 'now-99999999y', '99999999y'])
      expect(() => parseTimeValue(far, 'from', now), far).toThrow(/from: ".*" is not a time/);
  });

  it('reads look-backs and escapes ILIKE wildcards', () => {
    expect(sinceMinutes('30d', 'changes.since')).toBe(43_200);
    expect(sinceMinutes('2h', 'changes.since')).toBe(120);
    expect(() => sinceMinutes('0d', 'analysis.since')).toThrow(/analysis.since/);
    expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});

describe('request SQL', () => {
  it('groups the summary by the requested keys and binds every value', () => {
    const { sql, params, keys } = summarySql({ groupBy: ['tags.cluster'], filter: { status: 'Running' }, search: 'x' });
    expect(keys).toEqual(['tags.cluster']);
    expect(sql).toContain('GROUP BY k0');
    expect(sql).not.toContain('Running');
    expect(params).toEqual(['cluster', 'Running', '%x%']);
    expect(() => summarySql({ groupBy: ['type', 'type'] })).toThrow(/listed twice/);
  });

  it('narrows the summary to one agent, or to this instance for local', () => {
    const id = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
    const one = summarySql({ agent: id });
    expect(one.sql).toContain('ci.agent_id = $1::uuid');
    expect(one.params).toEqual([id]);
    expect(summarySql({ agent: 'local' }).params).toEqual(['00000000-0000-0000-0000-000000000000']);
    expect(summarySql({}).sql).not.toContain('ci.agent_id');
  });

  it('reads maintained 30-day counts and counts rows for other look-backs', () => {
    expect(summarySql({ changes: { since: '30d' } }).sql).not.toContain('config_changes');
    expect(summarySql({ changes: { since: '7d' } }).sql).toContain('config_changes');
  });

  it('pages and sorts changes, counting the total over the same conditions', () => {
    const now = new Date('2025-03-10T12:00:00Z');
    const { sql, params } = changesSql({ from: 'now-2d', page: 3, page_size: 50, sort_by: '-count' }, now);
    expect(sql).toContain('ORDER BY cc.count DESC');
    expect(params).toEqual(['2025-03-08T12:00:00.000Z', 50, 100]);
    expect(() => changesSql({ sort_by: 'password' })).toThrow(/sort_by/);
  });
});
