// Approval rules for runs of a playbook with `approval` (pure; the routes in approvalsApi.ts load the
// rows): who may approve, whether the requester may approve their own run, and when enough approvals
// are in. An approver is a listed person or a member of a listed team. `any`: one approval is
// enough. `all`: every listed person and, per listed team, one of its members must approve, each
// slot filled by a different person (distinct approvers). The requester cannot approve their own
// run unless they are the only approver listed (people and team members together); with `all`, a
// requester listed among others is not waited for (their request stands for their part).

export interface ApproverSet {
  type: 'any' | 'all';
  /** Listed people, as ids. */
  people: string[];
  /** Listed teams, as ids, with their members' ids. */
  teams: { id: string; members: string[] }[];
  /** Who asked for the run (null: a trigger started it). */
  requester: string | null;
}

export interface Vote {
  person_id: string;
  status: 'approved' | 'rejected';
}

export type Eligibility =
  { ok: true; teamId: string | null } | { ok: false; reason: 'not-approver' | 'own-run'; message: string };

/** Everyone who could approve: listed people and members of listed teams. */
export function everyApprover(set: ApproverSet): Set<string> {
  return new Set([...set.people, ...set.teams.flatMap((t) => t.members)]);
}

/** Whether `personId` may approve (or reject) the run, and for which listed team when not listed in person. */
export function eligibility(set: ApproverSet, personId: string, action: 'approve' | 'reject'): Eligibility {
  const listed = set.people.includes(personId);
  const team = set.teams.find((t) => t.members.includes(personId));
  if (!listed && !team)
    return { ok: false, reason: 'not-approver', message: 'You are not an approver of this playbook.' };
  if (action === 'approve' && personId === set.requester) {
    const all = everyApprover(set);
    if (!(all.size === 1 && all.has(personId)))
      return {
        ok: false,
        reason: 'own-run',
        message: 'You requested this run: another approver must approve it.',
      };
  }
  return { ok: true, teamId: listed ? null : team!.id };
}

/** Whether the approvals given so far let the run start. */
export function isApproved(set: ApproverSet, votes: Vote[]): boolean {
  const approvers = new Set(votes.filter((v) => v.status === 'approved').map((v) => v.person_id));
  const all = everyApprover(set);
  const only = all.size === 1 && set.requester !== null && all.has(set.requester);
  // A requester's own approval counts only when they are the only approver.
  if (set.requester && !only) approvers.delete(set.requester);
  if (set.type === 'any') return [...approvers].some((p) => all.has(p));
  // Slots: each listed person (not the requester, unless the only one), then one per listed team.
  const slots: string[][] = [
    ...set.people.filter((p) => only || p !== set.requester).map((p) => [p]),
    ...set.teams.map((t) => t.members),
  ];
  return slots.length > 0 && matchesEverySlot(slots, [...approvers]);
}

/** Bipartite matching: can every slot take a different approver among its candidates? */
function matchesEverySlot(slots: string[][], approvers: string[]): boolean {
  const heldBy = new Map<string, number>();
  const tryAssign = (slot: number, seen: Set<string>): boolean => {
    for (const person of slots[slot]!) {
      if (!approvers.includes(person) || seen.has(person)) continue;
      seen.add(person);
      const holder = heldBy.get(person);
      if (holder === undefined || tryAssign(holder, seen)) {
        heldBy.set(person, slot);
        return true;
      }
    }
    return false;
  };
  return slots.every((_, i) => tryAssign(i, new Set()));
}
