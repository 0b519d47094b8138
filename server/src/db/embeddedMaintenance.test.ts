import { describe, expect, it } from 'vitest';
import { dueTable, type TableState } from './embeddedMaintenance.js';

const table = (t: Partial<TableState> & { name: string }): TableState => ({
  reltuples: 1_000,
  relpages: 10,
  pages: 10,
  modified: 0,
  dead: 0,
  ...t,
});

describe('which table the embedded database maintains next', () => {
  it('leaves tables alone below autovacuum’s thresholds', () => {
    // 50 + 20 % of 1,000 dead rows, 50 + 10 % changed, size within 8 pages + 10 %.
    expect(dueTable([table({ name: 'a', dead: 250, modified: 150, pages: 18 })])).toBeUndefined();
    expect(dueTable([table({ name: 'empty', reltuples: -1, relpages: 0, pages: 0 })])).toBeUndefined();
  });

  it('vacuums a table with dead rows over the threshold, analyzing it too', () => {
    expect(dueTable([table({ name: 'a', dead: 251 })])).toEqual({ name: 'a', action: 'VACUUM (ANALYZE)' });
  });

  it('analyzes a table changed over the threshold, or whose size moved since its statistics', () => {
    expect(dueTable([table({ name: 'a', modified: 151 })])).toEqual({ name: 'a', action: 'ANALYZE' });
    // After a restart the counters are gone: never analyzed, or grown from 10 to 100 pages.
    expect(dueTable([table({ name: 'new', reltuples: -1, relpages: 0, pages: 3 })])).toEqual({
      name: 'new',
      action: 'ANALYZE',
    });
    expect(dueTable([table({ name: 'grown', pages: 100 })])).toEqual({ name: 'grown', action: 'ANALYZE' });
  });

  it('takes the most overdue table first', () => {
    const due = dueTable([
      table({ name: 'little', modified: 200 }),
      table({ name: 'much', dead: 5_000 }),
      table({ name: 'some', pages: 40 }),
    ]);
    expect(due).toEqual({ name: 'much', action: 'VACUUM (ANALYZE)' });
  });
});
