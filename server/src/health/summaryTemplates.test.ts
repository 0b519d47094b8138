import { describe, expect, it } from 'vitest';
import { consoleRowOf, type Item } from './summaryConsole.js';
import { rowParts, template } from './summaryTemplates.js';

describe('rowParts', () => {
  // An item as row_to_json writes it: flat values as JSON, the labels (jsonb) with its spaces.
  const jsonbText = (o: Record<string, string>) =>
    `{${Object.entries(o)
      .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
      .join(', ')}}`;
  const itemText = (it: Record<string, unknown>, labels: Record<string, string>) =>
    `{${Object.entries(it)
      .map(([k, v]) => `"${k}":${k === 'labels' ? jsonbText(labels) : JSON.stringify(v)}`)
      .join(',')}}`;
  // The template of an item: the JSON of its fields before the figures and of those after (TEMPLATE_ITEMS).
  const templateOf = (it: Record<string, unknown>, labels: Record<string, string>) => {
    const keys = Object.keys(it);
    const pick = (from: number, to: number) => Object.fromEntries(keys.slice(from, to).map((k) => [k, it[k]]));
    const u = keys.indexOf('uptime');
    return template({
      v: '',
      k: '',
      head: itemText(pick(0, u), labels),
      tail: itemText(pick(u + 2, keys.length), labels),
    });
  };
  const base = (over: Record<string, unknown>) => ({
    id: '7d3a1c1e-0000-4000-8000-000000000001',
    canary_id: '7d3a1c1e-0000-4000-8000-000000000002',
    canary_name: 'web',
    canary_namespace: 'default',
    agent_id: null,
    agent_name: null,
    labels: null,
    status: 'healthy',
    type: 'http',
    name: 'home',
    namespace: 'default',
    owner: 'team',
    severity: 'info',
    icon: null,
    description: 'the home page',
    endpoint: 'https://example.org/',
    uptime: { passed: 0, failed: 0, last_pass: null, last_fail: null },
    latency: { p95: null, p97: null, p99: null, rolling1h: null },
    last_runtime: '2026-11-26T17:23:04.12+00:00',
    last_transition_time: null,
    next_runtime: '2026-11-26T17:24:04+00:00',
    created_at: '2026-11-01T00:00:00+00:00',
    updated_at: '2026-11-01T00:00:00+00:00',
    deleted_at: null,
    ...over,
  });

  it.each([
    ['plain', {}, {}],
    ['labels', {}, { tier: 'gold', 'a b': 'c, d' }],
    [
      'values that look like keys',
      { description: 'x ","status":"fake","endpoint":"y\\", {"labels": 1}', name: ',"owner":' },
      { '","status":': '", "name": "' },
    ],
    ['escapes and unicode', { description: 'tab\there\n "q" \u0001 ünï €', endpoint: null }, { k: '\\' }],
  ])('cuts the console row of an item (%s) around its figures, as consoleRowOf writes it', (_, over, labels) => {
    const it = base(over);
    const text = itemText(it, labels);
    const row = rowParts(templateOf(it, labels));
    const whole = JSON.parse(`${row.head}3,1,120,95${row.tail}`) as unknown[];
    const item = JSON.parse(text) as Item;
    item.uptime = { passed: 3, failed: 1 };
    item.latency = { p95: 120, rolling1h: 95 };
    expect(whole).toEqual(JSON.parse(consoleRowOf(item)));
  });
});
