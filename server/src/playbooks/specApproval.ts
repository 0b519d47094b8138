// playbook.spec.approval.updated (spec/3 §9): applying a playbook that already exists with an
// `approval` section that differs from the stored one — added, removed, another type, or approvers
// added or taken away (their order does not count) — queues the event in the apply's transaction,
// with {id, name, approval} (approval null when it was removed), so notification rules can tell the
// people concerned that who must approve this playbook's runs has changed. Creating a playbook
// emits nothing: it has no earlier approval to differ from.
import type { Queryable } from '../db/database.js';
import type { PlaybookDefinition } from './playbook.js';

export const SPEC_APPROVAL_EVENT = 'playbook.spec.approval.updated';

interface ComparableApproval {
  type: string;
  people: string[];
  teams: string[];
}

const names = (value: unknown): string[] =>
  Array.isArray(value) ? [...new Set(value.map((v) => String(v).trim()))].sort() : [];

/** A stored resource's `spec.approval` in a form where equal meaning is equal JSON (null: none). */
export function comparableApproval(resource: unknown): ComparableApproval | null {
  const spec = (resource as { spec?: { approval?: unknown } } | null)?.spec;
  const approval = spec?.approval as { type?: unknown; approvers?: { people?: unknown; teams?: unknown } } | undefined;
  if (!approval || typeof approval !== 'object') return null;
  return {
    type: typeof approval.type === 'string' && approval.type ? approval.type : 'any',
    people: names(approval.approvers?.people),
    teams: names(approval.approvers?.teams),
  };
}

export function approvalChanged(before: unknown, after: unknown): boolean {
  return JSON.stringify(comparableApproval(before)) !== JSON.stringify(comparableApproval(after));
}

/** Queues playbook.spec.approval.updated when the applied spec's approval differs from the stored one. */
export async function emitSpecApprovalUpdated(
  tx: Queryable,
  id: string,
  storedResource: unknown,
  def: PlaybookDefinition,
): Promise<boolean> {
  if (!approvalChanged(storedResource, def.resource)) return false;
  await tx.query('INSERT INTO event_queue (name, properties) VALUES ($1, $2)', [
    SPEC_APPROVAL_EVENT,
    JSON.stringify({ id, name: def.name, approval: def.spec.approval ?? null }),
  ]);
  return true;
}
