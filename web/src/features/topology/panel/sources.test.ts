import { describe, expect, it } from 'vitest';
import { SECTION_TITLES, sectionsFor, SOURCES } from './sources';

describe('component side panel sections', () => {
  it('lists the sections of spec/2 §2.6 in order, Playbook runs between Checks and Teams', () => {
    expect(sectionsFor(true).map((s) => SECTION_TITLES[s])).toEqual([
      'Details',
      'Catalog',
      'Incidents',
      'Changes',
      'Checks',
      'Playbook runs',
      'Teams',
      'Insights',
    ]);
  });

  it('drops Incidents when the incidents feature is off', () => {
    expect(sectionsFor(false)).not.toContain('incidents');
    expect(sectionsFor(false)).toContain('playbook_runs');
  });

  it('lists a component playbook runs newest first from playbook_run_list', () => {
    expect(SOURCES.playbook_runs).toMatchObject({
      table: 'playbook_run_list',
      order: { column: 'created_at', ascending: false },
    });
    expect(SOURCES.playbook_runs.select.split(',')).toEqual(expect.arrayContaining(['id', 'status', 'playbooks']));
  });
});
