// Writing the audit trail: one audit_log row per change (0028). What goes in never holds a secret:
// details are built from the names of the fields a write set (never their values) and from a short
// list of values known to be harmless (a role, a state, whether a resource was created); anything
// else that looks like a secret is dropped by redact() before it is stored.
import type { Queryable } from '../db/database.js';

export type ActorKind = 'person' | 'token' | 'agent' | 'system';

export interface AuditActor {
  id: string | null;
  email: string | null;
  name: string | null;
  kind: ActorKind;
}

export interface AuditEntry {
  action: string;
  resourceType: string;
  resourceId?: string | null;
  resourceName?: string | null;
  details?: Record<string, unknown>;
}

export interface AuditSource {
  ip: string | null;
  userAgent: string | null;
}

/** Keys whose values are never stored, whatever they hold (matched case-insensitively, anywhere in the key). */
const SECRET_KEY =
  /pass(word)?|secret|token|certificate|private|credential|api_?key|authorization|cookie|bearer|sealed/i;

/** A copy of `value` with every secret-looking key's value replaced by "[redacted]" (and long strings cut). */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1);
    return out;
  }
  if (typeof value === 'string' && value.length > 200) return `${value.slice(0, 200)}…`;
  return value;
}

/** The one statement that writes the trail (fixed text: the /api/db fuzz test's SQL audit knows it). */
export const AUDIT_INSERT = `INSERT INTO audit_log (actor_id, actor_email, actor_name, actor_kind, action, resource_type,
  resource_id, resource_name, source_ip, user_agent, details) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;

/** Inserts entries, one row each; details are redacted on the way in. */
export async function recordAudit(
  db: Queryable,
  actor: AuditActor,
  source: AuditSource,
  entries: AuditEntry[],
): Promise<void> {
  for (const e of entries)
    await db.query(AUDIT_INSERT, [
      actor.id,
      actor.email,
      actor.name,
      actor.kind,
      e.action,
      e.resourceType,
      e.resourceId ?? null,
      e.resourceName ?? null,
      source.ip,
      source.userAgent?.slice(0, 300) ?? null,
      JSON.stringify(redact(e.details ?? {})),
    ]);
}
