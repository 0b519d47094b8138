// The interface every notification channel implements (one module per channel in this folder, listed
// in index.ts): how a destination is read from a shoutrrr-style URL (`slack://token@channel`, FORMATS.md)
// or from a stored connection, how it is shown without secrets, and how a message is really delivered.
// The engine (../engine) renders the message and decides whether and when to send; a sender only
// delivers, and throws a SenderError when it could not.
import type { ResolvedConnection } from '../../connections/resolve.js';

/** What the engine hands a channel: rendered once per send. */
export interface NotificationMessage {
  /** Plain text, one line. */
  title: string;
  /** Markdown (the rule's template rendered); channels convert it to their own markup. */
  body: string;
  /** The body as HTML (email). */
  html: string;
  /** Link to the resource in the console (PUBLIC_URL based). */
  permalink?: string;
  /** firing: the resource is in the state the event named; resolved: it recovered (PagerDuty resolve). */
  state: 'firing' | 'resolved';
  severity: 'critical' | 'error' | 'warning' | 'info';
  /** Stable per rule and resource (PagerDuty dedup_key, Opsgenie alias). */
  dedupKey: string;
  resource?: { type: string; id: string; name: string };
  /** The rule's `to.properties` and the connection's properties, for channel options. */
  properties: Record<string, string>;
}

export interface SendContext {
  /** Aborted when the delivery runs out of time. */
  signal: AbortSignal;
  timeoutMs: number;
  /** The server's SMTP settings, for email to people, teams and plain addresses. */
  smtp: { url: string | undefined; from: string };
}

export interface SendResult {
  /** What the service answered, kept in history (ids, status), never secrets. */
  response?: unknown;
}

/** A delivery that failed. `retryable` false (a 4xx other than 408/429, a bad destination) stops retries. */
export class SenderError extends Error {
  constructor(
    message: string,
    readonly retryable = true,
  ) {
    super(message);
  }
}

export interface Sender<Config = unknown> {
  /** e.g. "slack". */
  channel: string;
  /** URL schemes of the shoutrrr form this channel reads, e.g. ["slack"], ["generic+http", "generic+https"]. */
  schemes: readonly string[];
  /** Connection types (common/src/connections.ts) this channel serves. */
  connectionTypes: readonly string[];
  /** Reads a destination from a URL; throws SenderError(…, false) saying what is wrong with it. */
  fromUrl(url: string): Config;
  /** Reads a destination from a stored connection (secrets already opened). */
  fromConnection(connection: ResolvedConnection): Config;
  /** Where it goes, for history and logs: never a token or password. */
  describe(config: Config): string;
  send(config: Config, message: NotificationMessage, ctx: SendContext): Promise<SendResult>;
}
