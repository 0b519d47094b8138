import { describe, expect, it } from 'vitest';
import { eligibility, isApproved, type ApproverSet } from './approvals.js';

const set = (over: Partial<ApproverSet>): ApproverSet => ({
  type: 'any',
  people: [],
  teams: [],
  requester: 'req',
  ...over,
});
const yes = (...people: string[]) => people.map((person_id) => ({ person_id, status: 'approved' as const }));

describe('playbook approvals', () => {
  it('lets listed people and members of listed teams decide, nobody else', () => {
    const s = set({ people: ['a'], teams: [{ id: 't', members: ['b'] }] });
    expect(eligibility(s, 'a', 'approve')).toEqual({ ok: true, teamId: null });
    expect(eligibility(s, 'b', 'approve')).toEqual({ ok: true, teamId: 't' });
    expect(eligibility(s, 'x', 'approve')).toMatchObject({ ok: false, reason: 'not-approver' });
  });

  it('refuses the requester approving their own run unless they are the only approver', () => {
    expect(eligibility(set({ people: ['req', 'a'] }), 'req', 'approve')).toMatchObject({
      ok: false,
      reason: 'own-run',
    });
    expect(eligibility(set({ people: ['req', 'a'] }), 'req', 'reject')).toMatchObject({ ok: true });
    expect(eligibility(set({ people: ['req'] }), 'req', 'approve')).toMatchObject({ ok: true });
    expect(isApproved(set({ people: ['req'] }), yes('req'))).toBe(true);
  });

  it('any: the first approval; all: every person and one distinct member per team', () => {
    expect(isApproved(set({ people: ['a', 'b'] }), yes('b'))).toBe(true);
    const all = set({ type: 'all', people: ['a', 'b'] });
    expect(isApproved(all, yes('a'))).toBe(false);
    expect(isApproved(all, yes('a', 'a'))).toBe(false);
    expect(isApproved(all, yes('a', 'b'))).toBe(true);
    const team = set({ type: 'all', people: ['a'], teams: [{ id: 't', members: ['a', 'c'] }] });
    expect(isApproved(team, yes('a'))).toBe(false);
    expect(isApproved(team, yes('a', 'c'))).toBe(true);
    // The requester listed among others is not waited for with `all`.
    expect(isApproved(set({ type: 'all', people: ['req', 'a'] }), yes('a'))).toBe(true);
  });
});
