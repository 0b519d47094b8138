// Where a scraped item's logs are: a scraper entry's `logs: [{name, backend, type, selector|labels}]`
// (the topology components' LogSelector), each value a literal, a JSONPath `$.x` or a Go template
// `{{.x}}` over the item's config like id and name. Checked at apply (templates parse, `type` is a
// backend type), rendered per item by extract.ts and stored as config_items.log_selectors by save.ts,
// which POST /api/logs {config_id} and configs_with_logs read.
import { LOG_BACKEND_TYPES, type LogBackendType, type LogSelector } from '@opsdeck/common';
import { z } from 'zod';
import type { Queryable } from '../db/database.js';
import { parseTemplate } from '../expr/index.js';
import type { Path } from '../resources/yaml.js';

const value = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const labels = z.record(z.string(), value);

export const scraperLogsSchema = z.array(
  z.looseObject({
    name: z.string({ error: 'name is required' }).min(1, 'name is required'),
    /** A logging_backends name (`[namespace/]name`); none: the first backend (of `type` when given). */
    backend: z.string().optional(),
    type: z.string().optional(),
    selector: labels.optional(),
    /** canary-checker's name for `selector`. */
    labels: labels.optional(),
  }),
);
export type ScraperLogs = z.infer<typeof scraperLogsSchema>;

const isBackendType = (t: string): t is LogBackendType => (LOG_BACKEND_TYPES as readonly string[]).includes(t);

/** Apply-time problems of `logs` (path below the entry): templates that do not parse, unknown types. */
export function scraperLogsProblems(logs: ScraperLogs | undefined, path: Path, error: (p: Path, m: string) => void) {
  const template = (text: string | undefined, at: Path) => {
    if (!text?.includes('{{')) return;
    try {
      parseTemplate(text);
    } catch (e) {
      error(at, (e as Error).message);
    }
  };
  logs?.forEach((s, i) => {
    const at = [...path, i];
    template(s.name, [...at, 'name']);
    template(s.backend, [...at, 'backend']);
    if (s.type?.includes('{{')) template(s.type, [...at, 'type']);
    else if (s.type && !isBackendType(s.type))
      error([...at, 'type'], `"${s.type}" is not a log backend type (one of ${LOG_BACKEND_TYPES.join(', ')})`);
    for (const key of ['selector', 'labels'] as const)
      for (const [k, v] of Object.entries(s[key] ?? {})) template(v, [...at, key, k]);
  });
}

/**
 * The selectors of one item: each field looked up over its config (`lookup` is extract.ts's
 * literal/JSONPath/template rule). A selector whose name renders empty is left out, and so is a
 * label that renders empty; a type that renders to no backend type is an error naming it.
 */
export function itemLogSelectors(
  logs: ScraperLogs | undefined,
  lookup: (field: string | undefined) => string | undefined,
): LogSelector[] | null {
  if (!logs) return null;
  // A missing field renders as Go's "<no value>": no value for a name or a label.
  const rendered = (field: string | undefined) => {
    const text = lookup(field);
    return text === '<no value>' ? undefined : text;
  };
  return logs.flatMap((s) => {
    const name = rendered(s.name);
    if (!name) return [];
    const type = rendered(s.type);
    if (type && !isBackendType(type))
      throw new Error(
        `logs "${name}": type "${type}" is not a log backend type (one of ${LOG_BACKEND_TYPES.join(', ')})`,
      );
    const selector: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...s.labels, ...s.selector })) {
      const text = rendered(v);
      if (text) selector[k] = text;
    }
    return [{ name, backend: rendered(s.backend) || null, type: type ? (type as LogBackendType) : null, selector }];
  });
}

/** Writes the items' log selectors (null: none), touching only rows whose selectors changed. */
export async function saveLogSelectors(tx: Queryable, rows: { id: string; logs: LogSelector[] | null }[]) {
  for (let i = 0; i < rows.length; i += 500)
    await tx.query(
      `UPDATE config_items c SET log_selectors = r.logs
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, logs jsonb)
       WHERE c.id = r.id AND c.log_selectors IS DISTINCT FROM r.logs`,
      [JSON.stringify(rows.slice(i, i + 500).map((r) => ({ id: r.id, logs: r.logs?.length ? r.logs : null })))],
    );
}
