import { Terminal, Workflow, Cloud } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CATEGORY, groupByCategory, playbookIcon, playbookTitle } from './playbookCards';

const p = (name: string, category: string | null, title: string | null = null) => ({ name, category, title });

describe('groupByCategory', () => {
  it("puts playbooks without a category under 'Other', listed after the named categories", () => {
    const groups = groupByCategory([
      p('restart-pod', 'Kubernetes'),
      p('echo', null),
      p('vacuum', 'Database'),
      p('blank', '  '),
      p('scale', 'kubernetes'),
    ]);
    expect(groups.map((g) => g.category)).toEqual(['Database', 'Kubernetes', 'kubernetes', DEFAULT_CATEGORY]);
    expect(groups.at(-1)!.playbooks.map((x) => x.name)).toEqual(['blank', 'echo']);
  });

  it("merges an explicit 'Other' category with the default group", () => {
    const groups = groupByCategory([p('a', 'Other'), p('b', null), p('c', 'Alpha')]);
    expect(groups).toEqual([
      { category: 'Alpha', playbooks: [p('c', 'Alpha')] },
      { category: 'Other', playbooks: [p('a', 'Other'), p('b', null)] },
    ]);
  });

  it('sorts the playbooks of a group by the title they are shown with', () => {
    const groups = groupByCategory([p('zeta', 'Ops', 'Apply patch'), p('alpha', 'Ops', 'Restart'), p('mid', 'Ops')]);
    expect(groups[0]!.playbooks.map(playbookTitle)).toEqual(['Apply patch', 'mid', 'Restart']);
  });

  it('returns no groups for no playbooks', () => {
    expect(groupByCategory([])).toEqual([]);
  });
});

describe('playbookTitle', () => {
  it('shows the title, else the name', () => {
    expect(playbookTitle(p('restart', null, 'Restart deployment'))).toBe('Restart deployment');
    expect(playbookTitle(p('restart', null, '   '))).toBe('restart');
    expect(playbookTitle(p('restart', null, null))).toBe('restart');
  });
});

describe('playbookIcon', () => {
  it('maps known names case-insensitively, prefixes, and falls back to a generic icon', () => {
    expect(playbookIcon('Terminal')).toBe(Terminal);
    expect(playbookIcon('aws-ec2')).toBe(Cloud);
    expect(playbookIcon('something-else')).toBe(Workflow);
    expect(playbookIcon(null)).toBe(Workflow);
  });
});
