// Logs (spec/2 §2.9, spec/3 §2 "Log backends"): the LoggingBackend spec (file, Loki, OpenSearch,
// Kubernetes), a component's log selectors, and the POST /api/logs request and answer. Shared by
// the server (validation, search) and the web (the /logs viewer, the log backend form).
import { z } from 'zod';

export const LOGGING_BACKEND_API_VERSION = 'apm-hub.flanksource.com/v1';
export const LOGGING_BACKEND_KIND = 'LoggingBackend';

export const LOG_BACKEND_TYPES = ['file', 'loki', 'opensearch', 'kubernetes'] as const;
export type LogBackendType = (typeof LOG_BACKEND_TYPES)[number];

/** Page sizes of POST /api/logs: the default and the cap. */
export const LOGS_DEFAULT_LIMIT = 100;
export const LOGS_MAX_LIMIT = 1000;

const labels = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String));
/** A secret-like field: text, `{value}` or `{valueFrom: {secretKeyRef|configMapKeyRef: {name, key}}}`. */
const envValue = z.union([z.string(), z.looseObject({})]);

/** What every entry has: labels attached to its lines (and matched against a selector). */
const entryBase = { labels: labels.optional() };
/** Entries reaching a server: a URL, or a connection (`connection://Type/name` or a name) giving it. */
const remote = {
  url: z.string().optional(),
  connection: z.string().optional(),
  username: envValue.optional(),
  password: envValue.optional(),
};

export const fileEntrySchema = z.looseObject({
  ...entryBase,
  /** Globs (`*`, `**`, `?`, `{a,b}`); `path` (apm-hub's name) is read too. */
  paths: z.array(z.string().min(1)).min(1, 'list at least one path (glob)'),
});

export const lokiEntrySchema = z.looseObject({
  ...entryBase,
  ...remote,
  /** X-Scope-OrgID; else the connection's `tenant` property. */
  tenant: z.string().optional(),
});

export const opensearchEntrySchema = z.looseObject({
  ...entryBase,
  ...remote,
  index: z.string({ error: 'index is required' }).min(1, 'index is required'),
  /** The field of the time (default `@timestamp`) and of the text (default `message`). */
  timestampField: z.string().optional(),
  messageField: z.string().optional(),
});

export const kubernetesEntrySchema = z.looseObject({
  ...entryBase,
  /** A kubeconfig path or YAML; else the connection's certificate; else KUBECONFIG. */
  kubeconfig: z.string().optional(),
  connection: z.string().optional(),
  /** The namespace searched when the selector names none (default `default`). */
  namespace: z.string().optional(),
});

export const loggingBackendSpecSchema = z.looseObject({
  file: z.array(fileEntrySchema).optional(),
  loki: z.array(lokiEntrySchema).optional(),
  opensearch: z.array(opensearchEntrySchema).optional(),
  kubernetes: z.array(kubernetesEntrySchema).optional(),
});

export type FileEntry = z.infer<typeof fileEntrySchema>;
export type LokiEntry = z.infer<typeof lokiEntrySchema>;
export type OpenSearchEntry = z.infer<typeof opensearchEntrySchema>;
export type KubernetesEntry = z.infer<typeof kubernetesEntrySchema>;
export type LoggingBackendSpec = z.infer<typeof loggingBackendSpecSchema>;

/** The types a backend spec has entries of, in the order file, loki, opensearch, kubernetes. */
export function backendTypes(spec: LoggingBackendSpec): LogBackendType[] {
  return LOG_BACKEND_TYPES.filter((t) => (spec[t]?.length ?? 0) > 0);
}

/**
 * A component's (or catalog item's) logs, as the topology spec writes them (`logs:` of a component)
 * and as `components_with_logs.logs` lists them: `name` is what the selector dropdown shows.
 */
export const logSelectorSchema = z.looseObject({
  name: z.string().min(1, 'name is required'),
  /** A logging_backends name (`[namespace/]name`); none: the first backend (of `type` when given). */
  backend: z.string().optional(),
  type: z.enum(LOG_BACKEND_TYPES).optional(),
  /** Labels picking the stream: Loki labels, pod labels (`namespace`, `pod`, `container` are special), file entry labels, OpenSearch fields. */
  selector: labels.optional(),
  /** canary-checker's name for `selector`. */
  labels: labels.optional(),
});
export type LogSelectorSpec = z.infer<typeof logSelectorSchema>;

/** A log selector as stored and listed: `{name, backend, type, selector}` (nulls when not given). */
export interface LogSelector {
  name: string;
  backend: string | null;
  type: LogBackendType | null;
  selector: Record<string, string>;
}

export function normalizeLogSelector(s: LogSelectorSpec): LogSelector {
  return {
    name: s.name,
    backend: s.backend ?? null,
    type: s.type ?? null,
    selector: { ...s.labels, ...s.selector },
  };
}

/** POST /api/logs. */
export const logsRequestSchema = z.object({
  /** A backend's name (`[namespace/]name`) or id; else the component's selector's, else the first backend. */
  backend: z.string().min(1).optional(),
  /** A component id: its log selector (`selector`, default its first) says where its logs are. */
  id: z.string().min(1).optional(),
  /** A catalog item id, like `id`. */
  config_id: z.string().min(1).optional(),
  /** The name of one of the component's log selectors. */
  selector: z.string().optional(),
  /** Which entries of the backend (when it has several types). */
  type: z.enum(LOG_BACKEND_TYPES).optional(),
  /** Labels added to the selector. */
  labels: z.record(z.string(), z.string()).optional(),
  /** Plain text (case-insensitive), `/regex/flags`, or native: LogQL starting with `{` (Loki), a query_string (OpenSearch). */
  query: z.string().max(4096).optional(),
  /** RFC3339 or relative (`now-1h`); default: end − 1h, end default now. */
  start: z.string().optional(),
  end: z.string().optional(),
  limit: z.number().int().min(1).optional(),
  /** `nextCursor` of the previous page. */
  cursor: z.string().max(4096).optional(),
});
export type LogsRequest = z.infer<typeof logsRequestSchema>;

/** One line (spec/2 §3): timestamp RFC3339, message, labels. */
export interface LogLine {
  id: string;
  timestamp: string;
  message: string;
  labels: Record<string, string>;
}

/** POST /api/logs answer: newest first; `nextCursor` null on the last page. */
export interface LogsResponse {
  total?: number;
  results: LogLine[];
  nextCursor: string | null;
  backend: { id: string; name: string; type: LogBackendType };
  /**
   * The range holds lines the backend cannot give (Kubernetes: older than the newest 5000 lines of a
   * container), older than `before`; `message` says which, for the viewer to show.
   */
  truncated?: { before: string; message: string };
}
