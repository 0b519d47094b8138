import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CustomMetrics } from './custom.js';

describe('CustomMetrics (metrics[] of health checks)', () => {
  it('sets gauges, adds positive counter values and observes histograms, under the given names', async () => {
    const registry = new Registry();
    const custom = new CustomMetrics(registry, 'opsdeck_');
    custom.record([
      { name: 'queue_depth', type: 'gauge', value: 7, labels: { queue: 'a' } },
      { name: 'queue_depth', type: 'gauge', value: 3, labels: { queue: 'a' } },
      { name: 'jobs_done', type: 'counter', value: 2 },
      { name: 'jobs_done', type: 'counter', value: -5 },
      { name: 'jobs_done', type: 'counter', value: 1 },
      { name: 'latency_ms', type: 'histogram', value: 0.3 },
    ]);
    const text = await registry.metrics();
    expect(text).toContain('queue_depth{queue="a"} 3');
    expect(text).toContain('jobs_done 3');
    expect(text).toContain('# TYPE latency_ms histogram');
    expect(text).toContain('latency_ms_count 1');
  });

  it("counts a name reused with another type or labels, or one of the server's own, instead of exporting it", async () => {
    const registry = new Registry();
    const custom = new CustomMetrics(registry, 'opsdeck_');
    custom.record([
      { name: 'x', type: 'gauge', value: 1, labels: { a: '1' } },
      { name: 'x', type: 'counter', value: 1, labels: { a: '1' } },
      { name: 'x', type: 'gauge', value: 5, labels: { b: '1' } },
      { name: 'opsdeck_custom_metric_conflicts_total', type: 'gauge', value: 1 },
    ]);
    const text = await registry.metrics();
    expect(text).toContain('x{a="1"} 1');
    expect(text).not.toContain('x{b="1"}');
    expect(text).toContain('opsdeck_custom_metric_conflicts_total{name="x"} 2');
    expect(text).toContain('opsdeck_custom_metric_conflicts_total{name="opsdeck_custom_metric_conflicts_total"} 1');
  });
});
