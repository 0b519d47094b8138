// Pure rules of the Members tab: who the members are, who can still be added, the search of the
// Add Members picker and the toasts (spec/3 §2 Teams, §8).
import type { Person, TeamMemberRow } from './teamMembersApi';

export const NO_TEAM_MEMBERS = "You haven't added any team members to the team yet.";

export const removedMessage = (name: string) => `${name} removed from team successfully`;
export const addedMessage = (names: readonly string[]) => `${names.join(', ')} added to the team successfully`;

const byName = (a: Person, b: Person) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id);

/** The people of the member rows, by name (rows whose person is gone are left out). */
export function membersOf(rows: readonly TeamMemberRow[] | undefined): Person[] {
  return (rows ?? []).flatMap((r) => (r.person_id ? [r.person_id] : [])).sort(byName);
}

/** People not yet in the team, in the order given. */
export function nonMembers(people: readonly Person[], members: readonly Person[]): Person[] {
  const inTeam = new Set(members.map((m) => m.id));
  return people.filter((p) => !inTeam.has(p.id));
}

/** Whether a person matches the picker's search text (name or email, any case, every word). */
export function matchesSearch(person: Person, text: string): boolean {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${person.name} ${person.email ?? ''}`.toLowerCase();
  return words.every((w) => haystack.includes(w));
}
