// The ScrapeConfig resource (configs.flanksource.com/v1): validated as users write it, with line and
// column for every problem, unknown fields kept, unsupported scraper types refused by name.
//
// Spec fields besides the scraper lists (see README.md in this folder):
//   schedule            @every <duration> or cron; default @every 60m
//   full                kept as written
//   retention           staleItemAge (default 0: an item missing from a complete scrape is deleted
//                       at once), changes [{name, age, count}] (applied after each run),
//                       types [{name, createdAge, ...}] (kept, not applied yet)
//   changes             window (repeat window for fingerprints, default 1h),
//                       severity [{expr (CEL over change, config, previous), severity}]
//   analysis.rules      [{name, type?, expr (CEL, true = finding), severity, analysis_type, message}]
import { z } from 'zod';
import { parseDuration } from '../connections/duration.js';
import { parseSchedule } from '../jobs/schedule.js';
import { resourceHeader, storedResource, type StoredResource } from '../resources/metadata.js';
import {
  formatPath,
  ResourceError,
  ResourceErrors,
  validate,
  type Path,
  type ResourceDocument,
} from '../resources/yaml.js';
import { checkCel } from '../expr/index.js';
import { scraperLogsProblems } from './logs.js';
import { entryScriptErrors, withJavascriptChecked } from './scriptChecks.js';
import type { BaseScraperSpec, Scraper } from './scraper.js';

export const SCRAPE_CONFIG_API_VERSION = 'configs.flanksource.com/v1';
export const DEFAULT_SCRAPE_SCHEDULE = '@every 60m';
export const DEFAULT_CHANGE_WINDOW_MS = 3_600_000;
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

/** Spec fields that are not scraper lists. */
const SPEC_FIELDS = new Set(['schedule', 'full', 'retention', 'changes', 'analysis', 'labels', 'interval']);

const duration = z.union([
  z.number().nonnegative(),
  z.string().refine(
    (s) => {
      try {
        parseDuration(s);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'not a duration (examples: 0s, 30m, 1h, 7d)' },
  ),
]);
const severity = z.enum(SEVERITIES, { error: `severity must be one of ${SEVERITIES.join(', ')}` });

const ruleSchema = z.looseObject({
  name: z.string({ error: 'name is required' }).min(1, 'name is required'),
  type: z.string().optional(),
  expr: z.string({ error: 'expr is required (CEL over config and item, true when the insight applies)' }),
  severity: severity.optional(),
  analysis_type: z.string().optional(),
  message: z.string().optional(),
});

const resourceSchema = z.looseObject({
  ...resourceHeader(SCRAPE_CONFIG_API_VERSION, 'ScrapeConfig'),
  spec: z.looseObject({
    schedule: z.string().optional(),
    full: z.boolean().optional(),
    retention: z
      .looseObject({
        staleItemAge: duration.optional(),
        changes: z
          .array(z.looseObject({ name: z.string(), age: duration.optional(), count: z.number().int().optional() }))
          .optional(),
        types: z.array(z.looseObject({ name: z.string() })).optional(),
      })
      .optional(),
    changes: z
      .looseObject({
        window: duration.optional(),
        severity: z.array(z.looseObject({ expr: z.string({ error: 'expr is required' }), severity })).optional(),
      })
      .optional(),
    analysis: z.looseObject({ rules: z.array(ruleSchema).optional() }).optional(),
  }),
});

export type AnalysisRule = z.infer<typeof ruleSchema>;

export interface ScraperEntry {
  type: string;
  index: number;
  spec: BaseScraperSpec;
}

export interface ScrapeConfigDefinition extends StoredResource {
  scrapers: ScraperEntry[];
  staleItemAgeMs: number;
  changeWindowMs: number;
  /** retention.changes: per change type, drop rows older than ageMs and beyond the newest `count` per item. */
  changeRetention: { changeType: string; ageMs?: number; count?: number }[];
  severityRules: { expr: string; severity: string }[];
  analysisRules: AnalysisRule[];
}

const toMs = (v: string | number | undefined, fallback: number) =>
  v === undefined ? fallback : typeof v === 'number' ? v * 1000 : parseDuration(v);

export function parseScrapeConfig(
  doc: ResourceDocument,
  scrapers: ReadonlyMap<string, Scraper>,
): ScrapeConfigDefinition {
  const resource = validate(doc, resourceSchema);
  const spec = resource.spec as Record<string, unknown>;
  const errors: ResourceError[] = [];
  const error = (path: Path, message: string) => {
    const where = formatPath(path);
    errors.push(new ResourceError(`${where}: ${message}`, doc.locate(path), where));
  };
  let schedule = DEFAULT_SCRAPE_SCHEDULE;
  try {
    schedule = parseSchedule(resource.spec.schedule ?? DEFAULT_SCRAPE_SCHEDULE, undefined).text;
  } catch (e) {
    error(['spec', 'schedule'], (e as Error).message);
  }
  const supported = [...scrapers.keys()].sort().join(', ');
  const entries: ScraperEntry[] = [];
  for (const [key, value] of Object.entries(spec)) {
    if (SPEC_FIELDS.has(key)) continue;
    const scraper = scrapers.get(key);
    if (!scraper) {
      // Lists are scraper sections of other types; anything else is an unknown field, kept.
      if (Array.isArray(value))
        error(['spec', key], `scraper type "${key}" is not supported (supported: ${supported})`);
      continue;
    }
    if (!Array.isArray(value)) {
      error(['spec', key], `${key} must be a list of ${key} scrapers`);
      continue;
    }
    value.forEach((entry, index) => {
      const path = ['spec', key, index];
      try {
        const parsed = validate({ data: entry, locate: doc.locate }, scraper.schema, path) as BaseScraperSpec;
        errors.push(...entryScriptErrors(doc, entry, path));
        scraperLogsProblems(parsed.logs, [...path, 'logs'], error);
        entries.push({ type: key, index, spec: parsed });
      } catch (e) {
        if (e instanceof ResourceErrors) errors.push(...e.errors);
        else throw e;
      }
    });
  }
  const rules = resource.spec.analysis?.rules ?? [];
  rules.forEach((rule, i) => {
    const problem = celProblem(rule.expr);
    if (problem) error(['spec', 'analysis', 'rules', i, 'expr'], problem);
  });
  const severityRules = resource.spec.changes?.severity ?? [];
  severityRules.forEach((rule, i) => {
    const problem = celProblem(rule.expr);
    if (problem) error(['spec', 'changes', 'severity', i, 'expr'], problem);
  });
  if (entries.length === 0 && errors.length === 0)
    error(['spec'], `a ScrapeConfig needs at least one scraper (supported types: ${supported})`);
  if (errors.length) throw new ResourceErrors(errors.slice(0, 50));
  return {
    ...storedResource(doc, resource.metadata, schedule),
    scrapers: entries,
    staleItemAgeMs: toMs(resource.spec.retention?.staleItemAge, 0),
    changeWindowMs: toMs(resource.spec.changes?.window, DEFAULT_CHANGE_WINDOW_MS),
    changeRetention: (resource.spec.retention?.changes ?? []).map((r) => ({
      changeType: r.name,
      ageMs: r.age === undefined ? undefined : toMs(r.age, 0),
      count: r.count,
    })),
    severityRules,
    analysisRules: rules,
  };
}

function celProblem(expr: string): string | undefined {
  try {
    checkCel(expr);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * parseScrapeConfig, plus the JavaScript transforms compiled (never run): what the apply endpoint
 * and /api/db use. parseScrapeConfig alone (sync) already refuses bad CEL and templates.
 */
export function parseScrapeConfigChecked(
  doc: ResourceDocument,
  scrapers: ReadonlyMap<string, Scraper>,
): Promise<ScrapeConfigDefinition> {
  return withJavascriptChecked(doc, scrapers.keys(), () => parseScrapeConfig(doc, scrapers));
}

/** Parses a stored resource (no positions: it was valid when applied). */
export function parseStoredScrapeConfig(
  resource: Record<string, unknown>,
  scrapers: ReadonlyMap<string, Scraper>,
): ScrapeConfigDefinition {
  return parseScrapeConfig({ data: resource, locate: () => undefined }, scrapers);
}
