import { describe, expect, it } from 'vitest';
import { hiddenListColumns } from './listColumns';
import type { ConfigListRow } from './types';

const row = (over: Partial<ConfigListRow> = {}): ConfigListRow => ({
  id: '1',
  type: 'T',
  config_class: 'C',
  name: 'n',
  status: null,
  health: null,
  labels: null,
  tags: null,
  created_at: '',
  updated_at: null,
  deleted_at: null,
  cost_per_minute: null,
  cost_total_1d: null,
  cost_total_7d: null,
  cost_total_30d: null,
  changes: 0,
  analysis: null,
  agent: null,
  ...over,
});

describe('flat list columns', () => {
  it('hides the type of a one-type list, and cost and agent columns nobody on the page has', () => {
    expect([...hiddenListColumns([row()], true)].sort()).toEqual([
      'agent',
      'cost_total_1d',
      'cost_total_30d',
      'cost_total_7d',
      'type',
    ]);
    expect([...hiddenListColumns([row({ cost_total_30d: '12.5', agent: { id: 'a', name: 'edge' } })], false)]).toEqual(
      [],
    );
    // Nothing is hidden before the rows arrive but the type.
    expect([...hiddenListColumns(undefined, true)]).toEqual(['type']);
  });
});
