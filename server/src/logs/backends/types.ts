// The one interface every log backend implements (one file per type in this folder): its spec
// entry schema, and search(entries, query, ctx) → one page of lines, newest first, never the
// whole source. The query arrives parsed (text or regex, native query, time range, selector).
import type { LogBackendType, LogLine } from '@opsdeck/common';
import type { z } from 'zod';
import type { ConnectionContext } from '../../connections/index.js';

/** What to look for, parsed once by the API. */
export interface LogQuery {
  /** The text as written ('' for none). */
  text: string;
  /** Plain text (case-insensitive) or /regex/ as a RegExp; undefined: every line. */
  match?: RegExp;
  /** The text when it is the backend's own language (LogQL starting with `{`); undefined otherwise. */
  native?: string;
  start: Date;
  end: Date;
  limit: number;
  /** The previous page's nextCursor, as given. */
  cursor?: string;
  /** Labels picking the stream (component selector + request labels). */
  selector: Record<string, string>;
}

export interface SearchContext extends ConnectionContext {
  signal: AbortSignal;
  timeoutMs: number;
}

export interface LogPage {
  results: LogLine[];
  nextCursor: string | null;
  total?: number;
  /** Lines in the range this backend cannot read (older than `before`), and a sentence saying so. */
  truncated?: { before: string; message: string };
}

/** A spec problem of one entry: the path below the entry (e.g. ['paths', 1]) and what is wrong. */
export interface EntryProblem {
  path: (string | number)[];
  message: string;
}

export interface LogBackend<Entry = unknown> {
  type: LogBackendType;
  schema: z.ZodType<Entry>;
  /** Checks beyond the schema (a glob that cannot match, a connection that does not exist). */
  problems?(entry: Entry, ctx: Pick<ConnectionContext, 'connection'>): Promise<EntryProblem[]>;
  search(entries: Entry[], query: LogQuery, ctx: SearchContext): Promise<LogPage>;
}

/** A request the backend refuses as written (400), e.g. a Kubernetes backend without a kubeconfig. */
export class LogRequestError extends Error {
  override name = 'LogRequestError';
}

/** The backend answered with an error (502). */
export class LogBackendError extends Error {
  override name = 'LogBackendError';
}
