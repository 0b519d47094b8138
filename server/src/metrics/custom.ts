// The metrics health checks define (`metrics[]`, canary-checker's custom metrics): exported on
// /metrics under the names the specs give, as canary-checker exports them — a gauge is set, a counter
// adds the value (only a positive one), a histogram observes it. One series per name and label set;
// a name used again with another type or other label names keeps its first definition, and the
// conflicting values are counted in opsdeck_custom_metric_conflicts_total instead of exported.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Metric } from '../health/checker.js';

type Collector = Gauge<string> | Counter<string> | Histogram<string>;

export class CustomMetrics {
  private readonly collectors = new Map<string, { type: string; labelNames: string; collector: Collector }>();
  private readonly conflicts: Counter<'name'>;

  constructor(
    private readonly registry: Registry,
    prefix: string,
  ) {
    this.conflicts = new Counter({
      name: `${prefix}custom_metric_conflicts_total`,
      help: 'Values of check-defined metrics (metrics[]) not exported: the name is taken by another type or other label names.',
      labelNames: ['name'],
      registers: [registry],
    });
  }

  /** Exports the values one check run produced. */
  record(metrics: readonly Metric[]): void {
    for (const m of metrics) {
      const labels = m.labels ?? {};
      const labelNames = Object.keys(labels).sort();
      const type = m.type ?? 'gauge';
      const c = this.collector(m.name, type, labelNames);
      if (!c) {
        this.conflicts.inc({ name: m.name });
        continue;
      }
      if (c instanceof Histogram) c.observe(labels, m.value);
      else if (c instanceof Counter) {
        if (m.value > 0) c.inc(labels, m.value);
      } else c.set(labels, m.value);
    }
  }

  private collector(name: string, type: string, labelNames: string[]): Collector | undefined {
    const key = labelNames.join(',');
    const known = this.collectors.get(name);
    if (known) return known.type === type && known.labelNames === key ? known.collector : undefined;
    // A name the registry already has (one of the server's own) cannot be taken.
    if (this.registry.getSingleMetric(name)) return undefined;
    const help = `Defined by a health check's metrics[] (${type}).`;
    const registers = [this.registry];
    const collector: Collector =
      type === 'histogram'
        ? new Histogram({ name, help, labelNames, registers })
        : type === 'counter'
          ? new Counter({ name, help, labelNames, registers })
          : new Gauge({ name, help, labelNames, registers });
    this.collectors.set(name, { type, labelNames: key, collector });
    return collector;
  }
}
