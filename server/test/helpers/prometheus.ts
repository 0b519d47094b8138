// Scrapes /metrics and reads it with an independent Prometheus text-format parser
// (parse-prometheus-text-format, the prom2json shape), after checking every line against the
// format's grammar: a HELP and a TYPE before each family's samples, sample lines of
// name{label="value",...} value. That package folds a histogram's labelled series into one (it
// handles only label-less histograms), so histograms are read here, strictly: buckets per series,
// cumulative, ending in +Inf equal to _count, with _sum.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { expect } from 'vitest';

export type Family = ReturnType<typeof parsePrometheusTextFormat>[number];

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
const VALUE = '(?:[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?|[-+]?Inf|NaN)';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(?:${LABEL}(?:,${LABEL})*,?)?\\})? ${VALUE}(?: -?\\d+)?$`);
const HELP = new RegExp(`^# HELP (${NAME}) .*$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);

/** Throws on the first line the text format does not allow, or a sample of a family not declared. */
export function checkExposition(text: string): void {
  const typed = new Map<string, string>();
  text.split('\n').forEach((line, i) => {
    if (line === '') return;
    const where = `line ${i + 1}: ${line}`;
    const help = HELP.exec(line);
    if (help) return;
    const type = TYPE.exec(line);
    if (type) {
      expect(typed.has(type[1]!), `${where} (family declared twice)`).toBe(false);
      typed.set(type[1]!, type[2]!);
      return;
    }
    const sample = SAMPLE.exec(line);
    expect(sample, where).not.toBeNull();
    const name = sample![1]!;
    const family = typed.has(name) ? name : name.replace(/_(bucket|sum|count|total|created)$/, '');
    expect(typed.has(family) || typed.has(name), `${where} (no TYPE before it)`).toBe(true);
  });
}

/** name{labels} value, labels unescaped. */
function parseSample(line: string): { name: string; labels: Record<string, string>; value: number } {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/.exec(line)!;
  const labels: Record<string, string> = {};
  const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g;
  for (const [, k, v] of (m[2] ?? '').matchAll(re))
    labels[k!] = v!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  const raw = m[3]!;
  const value = raw === '+Inf' || raw === 'Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
  return { name: m[1]!, labels, value };
}

/** Every histogram series of the text, strictly checked. */
function histograms(text: string, families: Map<string, Family>): Map<string, Family['metrics']> {
  const out = new Map<string, Family['metrics']>();
  const lines = text.split('\n').filter((l) => l && !l.startsWith('#'));
  for (const [name, family] of families) {
    if (family.type !== 'HISTOGRAM') continue;
    const series = new Map<
      string,
      { labels: Record<string, string>; buckets: [number, number][]; count?: number; sum?: number }
    >();
    for (const line of lines) {
      const sample = parseSample(line);
      const suffix = sample.name.slice(name.length);
      if (!sample.name.startsWith(name) || !['_bucket', '_sum', '_count'].includes(suffix)) continue;
      const { le, ...labels } = sample.labels;
      const key = JSON.stringify(Object.entries(labels).sort());
      const entry = series.get(key) ?? { labels, buckets: [] };
      series.set(key, entry);
      if (suffix === '_bucket') {
        expect(le, line).toBeDefined();
        entry.buckets.push([le === '+Inf' ? Infinity : Number(le), sample.value]);
      } else if (suffix === '_sum') entry.sum = sample.value;
      else entry.count = sample.value;
    }
    out.set(
      name,
      [...series.values()].map((e) => {
        const where = `${name}${JSON.stringify(e.labels)}`;
        expect(e.count, `${where} has _count`).toBeDefined();
        expect(e.sum, `${where} has _sum`).toBeDefined();
        const bounds = e.buckets.map(([b]) => b);
        expect(bounds, `${where} buckets in order`).toEqual([...bounds].sort((a, b) => a - b));
        expect(bounds.at(-1), `${where} ends with +Inf`).toBe(Infinity);
        const counts = e.buckets.map(([, c]) => c);
        expect(counts, `${where} cumulative`).toEqual([...counts].sort((a, b) => a - b));
        expect(counts.at(-1), `${where} +Inf = count`).toBe(e.count);
        return {
          labels: e.labels,
          buckets: Object.fromEntries(e.buckets.map(([b, c]) => [b === Infinity ? '+Inf' : String(b), String(c)])),
          count: String(e.count),
          sum: String(e.sum),
        };
      }),
    );
  }
  return out;
}

export interface Scrape {
  status: number;
  contentType: string | null;
  text: string;
  families: Map<string, Family>;
}

export async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await fetch(`${url}/metrics`, { headers });
  const text = await res.text();
  if (res.status !== 200)
    return { status: res.status, contentType: res.headers.get('content-type'), text, families: new Map() };
  checkExposition(text);
  const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  for (const [name, metrics] of histograms(text, families)) families.set(name, { ...families.get(name)!, metrics });
  return { status: res.status, contentType: res.headers.get('content-type'), text, families };
}

/** The samples of a family whose labels include `labels`. */
export function samples(s: Scrape, name: string, labels: Record<string, string> = {}) {
  const family = s.families.get(name);
  return (family?.metrics ?? []).filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
}

/** The one value of a gauge or counter with these labels (undefined when absent). */
export function value(s: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples(s, name, labels);
  return found.length ? Number(found[0]!.value) : undefined;
}
