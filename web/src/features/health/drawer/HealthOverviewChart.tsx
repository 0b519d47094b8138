// The Health Overview chart of the check drawer: passed and failed runs per time bucket (stacked
// bars) and the average duration (line). recharts lives in this lazily loaded module only.
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from 'recharts';
import type { NameType, ValueType } from 'recharts/types/component/DefaultTooltipContent';
import { formatDuration } from '../../../ui/format';
import type { CheckStatsBucket } from '../types';

export interface HealthOverviewChartProps {
  series: CheckStatsBucket[];
  /** Length of the range in ms: decides between times and dates on the axis. */
  rangeMs: number;
  height?: number;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const fullFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

interface Point {
  t: number;
  passed: number;
  failed: number;
  duration: number | null;
}

function ChartTooltip({ active, payload }: TooltipContentProps<ValueType, NameType>) {
  if (!active || !payload?.length) return null;
  const p = payload[0].payload as Point;
  return (
    <div className="rounded-md border border-border bg-surface px-3 py-2 text-[12px] shadow-pop">
      <div className="mb-1 font-medium text-foreground">{fullFormat.format(p.t)}</div>
      <div className="flex items-center gap-1.5 text-success">
        <span className="inline-block size-2 rounded-sm bg-success" /> {p.passed} passed
      </div>
      <div className="flex items-center gap-1.5 text-danger">
        <span className="inline-block size-2 rounded-sm bg-danger" /> {p.failed} failed
      </div>
      {p.duration !== null && <div className="mt-0.5 text-muted">avg {formatDuration(p.duration)}</div>}
    </div>
  );
}

export default function HealthOverviewChart({ series, rangeMs, height = 200 }: HealthOverviewChartProps) {
  const data: Point[] = series.map((b) => ({
    t: Date.parse(b.bucket),
    passed: Number(b.passed),
    failed: Number(b.failed),
    duration: b.duration === null ? null : Number(b.duration),
  }));
  const tick = (t: number) => (rangeMs > 2 * 86_400_000 ? dayFormat.format(t) : timeFormat.format(t));

  return (
    <div style={{ height }} data-testid="health-overview-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} barCategoryGap="18%">
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="t"
            type="category"
            tickFormatter={tick}
            tick={{ fill: 'var(--subtle)', fontSize: 11 }}
            axisLine={{ stroke: 'var(--border)' }}
            tickLine={false}
            minTickGap={28}
          />
          <YAxis
            yAxisId="runs"
            allowDecimals={false}
            tick={{ fill: 'var(--subtle)', fontSize: 11 }}
            axisLine={false}
            tickLine={false}
            width={36}
          />
          <YAxis
            yAxisId="ms"
            orientation="right"
            tickFormatter={(v: number) => formatDuration(v)}
            tick={{ fill: 'var(--subtle)', fontSize: 11 }}
            axisLine={false}
            tickLine={false}
            width={48}
          />
          <Tooltip content={ChartTooltip} cursor={{ fill: 'var(--surface-hover)' }} />
          <Bar yAxisId="runs" dataKey="passed" stackId="runs" fill="var(--success)" isAnimationActive={false} />
          <Bar
            yAxisId="runs"
            dataKey="failed"
            stackId="runs"
            fill="var(--danger)"
            radius={[2, 2, 0, 0]}
            isAnimationActive={false}
          />
          <Line
            yAxisId="ms"
            dataKey="duration"
            type="monotone"
            stroke="var(--primary)"
            strokeWidth={1.5}
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
