// The interface every scraper type implements (one module per type under scrapers/), the fields all
// scraper entries share (id, name, type, class, items, format, transform, labels, tags, logs), and what a
// run gives a scraper. A scraper only reads its source and returns documents; extract.ts turns them
// into catalog items with the shared fields.
import { z } from 'zod';
import type { TimedConnectionContext } from '../connections/resolve.js';
import { durationSchema } from '../connections/duration.js';
import { envValueSchema } from '../connections/envValue.js';
import { scraperLogsSchema, type ScraperLogs } from './logs.js';

/** A Lookup as config-db writes it: a literal `value`, a CEL `expr` or a Go-template `template`. */
const lookupSchema = z.union([
  z.string(),
  z.looseObject({ value: z.string().optional(), expr: z.string().optional(), label: z.string().optional() }),
]);

const scriptSchema = z.looseObject({
  expr: z.string().optional(),
  javascript: z.string().optional(),
  jsonpath: z.string().optional(),
  jsonPath: z.string().optional(),
  gotemplate: z.string().optional(),
  template: z.string().optional(),
});

export const relationshipRuleSchema = z.looseObject({
  /** CEL over `config` (and `item`): the rule applies to items for which it is true (all when absent). */
  filter: z.string().optional(),
  /** The related item: each field a literal, `{value}`, `{expr}` (CEL) or a JSONPath `$.x`. */
  id: lookupSchema.optional(),
  external_id: lookupSchema.optional(),
  type: lookupSchema.optional(),
  name: lookupSchema.optional(),
  namespace: lookupSchema.optional(),
  /** The related item is this item's parent (default: the related item is a child/target). */
  parent: z.boolean().optional(),
  relation: z.string().optional(),
});

export const transformSchema = z.looseObject({
  ...scriptSchema.shape,
  script: scriptSchema.optional(),
  exclude: z
    .array(
      z.union([
        z.string(),
        z.looseObject({
          jsonpath: z.string({ error: 'jsonpath is required' }),
          types: z.array(z.string()).optional(),
        }),
      ]),
    )
    .optional(),
  mask: z
    .array(
      z.looseObject({
        selector: z.string().optional(),
        jsonpath: z.string({ error: 'jsonpath is required' }),
        value: z.string({ error: 'value is required: md5sum or the text to put in place' }),
      }),
    )
    .optional(),
  relationship: z.array(relationshipRuleSchema).optional(),
});

export type TransformSpec = z.infer<typeof transformSchema>;
export type RelationshipRule = z.infer<typeof relationshipRuleSchema>;

/** Fields every scraper entry accepts (config-db's BaseScraper), kept loosely. */
export const baseScraperFields = {
  id: z.string().optional(),
  name: z.string().optional(),
  type: z.string().optional(),
  class: z.string().optional(),
  items: z.string().optional(),
  format: z.string().optional(),
  description: z.string().optional(),
  transform: transformSchema.optional(),
  labels: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
  tags: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
  timeout: durationSchema.optional(),
  /** Where each item's logs are (catalog/logs.ts): [{name, backend, type, selector|labels}], templated. */
  logs: scraperLogsSchema.optional(),
};

export { durationSchema, envValueSchema };

export interface BaseScraperSpec {
  id?: string;
  name?: string;
  type?: string;
  class?: string;
  items?: string;
  format?: string;
  description?: string;
  transform?: TransformSpec;
  labels?: Record<string, string>;
  tags?: Record<string, string>;
  timeout?: string | number;
  logs?: ScraperLogs;
  [key: string]: unknown;
}

/** One document read from a source, before the shared fields make it an item (or several). */
export interface RawDocument {
  data: unknown;
  /** Where it came from: a file path, a URL, a query, a cluster object. */
  source: string;
  /** Values the scraper knows when the spec does not say (Kubernetes: id = uid, type = Kubernetes::Kind...). */
  defaults?: { id?: string; name?: string; type?: string; class?: string; tags?: Record<string, string> };
  /** The text was YAML (shown as YAML in the Config tab). */
  format?: 'json' | 'yaml';
}

/** Connections, secrets and the run's time limit (connections/), and the scraper being run. */
export interface ScrapeContext extends TimedConnectionContext {
  scraper: { id: string; name: string; namespace: string };
  /** Reports a problem with part of the source (one bad file) while the rest is still returned. */
  warn(message: string): void;
}

export interface Scraper<S extends BaseScraperSpec = BaseScraperSpec> {
  /** The key under `spec:` in a ScrapeConfig, e.g. "file". */
  type: string;
  /** Validates one entry of that list; unknown fields are kept (z.looseObject). */
  schema: z.ZodType<S>;
  /** Reads the source; throws an Error a person can act on when it cannot. */
  scrape(spec: S, ctx: ScrapeContext): Promise<RawDocument[]>;
}

/** A failure of the spec or the source, reported in the run's errors. */
export class ScrapeError extends Error {}
