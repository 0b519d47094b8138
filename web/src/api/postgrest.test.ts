import { describe, expect, it } from 'vitest';
import { containsPattern, db, quoteListItem, totalFromContentRange } from './postgrest';

const query = (q: { toSearchParams(): URLSearchParams }) => [...q.toSearchParams()];

describe('PostgREST query builder', () => {
  it('builds filters, order and paging', () => {
    const q = db('job_history')
      .select('id,name')
      .eq('resource_id', 'abc')
      .gte('duration_millis', 500)
      .is('deleted_at', null)
      .order('created_at', { ascending: false })
      .order('name')
      .page(2, 50);
    expect(query(q)).toEqual([
      ['select', 'id,name'],
      ['resource_id', 'eq.abc'],
      ['duration_millis', 'gte.500'],
      ['deleted_at', 'is.null'],
      ['order', 'created_at.desc,name.asc'],
      ['limit', '50'],
      ['offset', '100'],
    ]);
  });

  it('encodes values in the URL instead of concatenating them', () => {
    const url = db('people').eq('name', 'a&b=c,d').toString();
    expect(url).toBe('/api/db/people?name=eq.a%26b%3Dc%2Cd');
    expect(new URL(url, 'http://x').searchParams.get('name')).toBe('eq.a&b=c,d');
  });

  it('quotes list items holding reserved characters', () => {
    expect(quoteListItem('FAILED')).toBe('FAILED');
    expect(quoteListItem('a,b')).toBe('"a,b"');
    expect(quoteListItem('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoteListItem('x(1)')).toBe('"x(1)"');
    expect(quoteListItem('')).toBe('""');
    expect(quoteListItem(3)).toBe('3');
    expect(query(db('t').in('status', ['A', 'b,c']))).toEqual([['status', 'in.(A,"b,c")']]);
  });

  it('turns a tri-state split into in and not.in filters', () => {
    expect(query(db('t').includeExclude('status', { include: ['FAILED'], exclude: ['SUCCESS', 'WARNING'] }))).toEqual([
      ['status', 'in.(FAILED)'],
      ['status', 'not.in.(SUCCESS,WARNING)'],
    ]);
    expect(query(db('t').includeExclude('status', { include: [], exclude: [] }))).toEqual([]);
  });

  it('makes a contains pattern from search text', () => {
    expect(containsPattern('web*')).toBe('*web*');
  });

  it('reads the total from Content-Range', () => {
    expect(totalFromContentRange('0-49/120')).toBe(120);
    expect(totalFromContentRange('*/0')).toBe(0);
    expect(totalFromContentRange('0-9/*')).toBeUndefined();
    expect(totalFromContentRange(null)).toBeUndefined();
  });

  it('refuses an update or delete without a filter', async () => {
    await expect(db('people').update({ name: 'x' })).rejects.toThrow('Refusing to update every row of people');
    await expect(db('people').delete()).rejects.toThrow('Refusing to delete every row of people');
  });
});
