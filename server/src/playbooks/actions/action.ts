// The interface every playbook action type implements (one module per type in this folder), and
// what the runner hands it. Actions reach systems through the shared connection plumbing
// (server/src/connections: httpRequest.ts, script.ts, sql.ts), so a playbook reaches a system exactly
// the way a check of the same kind does.
import type { z } from 'zod';
import type { Mailer } from '../../auth/mailer.js';
import type { Queryable } from '../../db/database.js';
import { connectionResolver, type ConnectionContext } from '../../connections/resolve.js';
import { resolveEnvValue } from '../../connections/envValue.js';

export interface ActionContext {
  db: Queryable;
  /** Aborted on the action's timeout or when the run is cancelled; the reason says which. */
  signal: AbortSignal;
  timeoutMs: number;
  playbook: { id: string; name: string; namespace: string };
  /** The playbook_run_actions row of this attempt (artifacts are saved against it). */
  actionId?: string;
  /** The server's mailer (SMTP_URL) and sender address, for `notification`. */
  mail: { mailer: Mailer; from: string };
}

export interface ActionOutcome {
  /** What the action produced, stored on the action row (stdout, code, rows...). */
  result: Record<string, unknown>;
  /** Set when the action failed, worded for a person. */
  error?: string;
}

export interface PlaybookAction<S = Record<string, unknown>> {
  /** The key naming the action type in the spec, e.g. `exec`. */
  type: string;
  /** Validates the action's body; refusals name unsupported fields. */
  schema: z.ZodType<S>;
  /** Fields not rendered as Go templates before the run (e.g. http `body` unless `templateBody`). */
  untemplated?(spec: S): string[];
  run(spec: S, ctx: ActionContext): Promise<ActionOutcome>;
}

/** Stored connections and EnvValues for an action, resolved the same way as for checks. */
export function connectionContext(ctx: ActionContext): ConnectionContext {
  return { connection: connectionResolver(ctx.db), resolve: resolveEnvValue };
}

/** Why the action's signal aborted, for a person: "timed out after 5m", else cancelled. */
export function abortText(ctx: ActionContext): string {
  const reason: unknown = ctx.signal.reason;
  if (reason instanceof Error && /^timed out/i.test(reason.message)) return reason.message;
  return 'the action was cancelled before it finished';
}
