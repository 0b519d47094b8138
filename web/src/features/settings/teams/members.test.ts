import { describe, expect, it } from 'vitest';
import { addedMessage, matchesSearch, membersOf, nonMembers, removedMessage } from './members';

const ada = { id: 'a', name: 'Ada Lovelace', email: 'ada@example.com' };
const bob = { id: 'b', name: 'bob', email: null };
const cy = { id: 'c', name: 'Cy Young', email: 'cy@example.com' };

describe('team members', () => {
  it('lists the embedded people by name, ignoring rows without a person', () => {
    expect(
      membersOf([
        { team_id: 't', person_id: cy },
        { team_id: 't', person_id: null },
        { team_id: 't', person_id: bob },
        { team_id: 't', person_id: ada },
      ]).map((p) => p.id),
    ).toEqual(['a', 'b', 'c']);
    expect(membersOf(undefined)).toEqual([]);
  });

  it('offers only people not yet in the team', () => {
    expect(nonMembers([ada, bob, cy], [bob])).toEqual([ada, cy]);
    expect(nonMembers([ada], [ada])).toEqual([]);
  });

  it('searches name and email, every word, any case', () => {
    expect(matchesSearch(ada, '')).toBe(true);
    expect(matchesSearch(ada, 'LOVE')).toBe(true);
    expect(matchesSearch(ada, 'ada example')).toBe(true);
    expect(matchesSearch(cy, 'ada')).toBe(false);
    expect(matchesSearch(bob, 'example')).toBe(false);
  });

  it('words the toasts as the spec does', () => {
    expect(removedMessage('Ada Lovelace')).toBe('Ada Lovelace removed from team successfully');
    expect(addedMessage(['Ada Lovelace', 'Cy Young'])).toBe('Ada Lovelace, Cy Young added to the team successfully');
  });
});
