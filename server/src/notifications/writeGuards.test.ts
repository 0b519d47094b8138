// The pure parts of applying rules and guarding /api/db writes: a form row written back as a
// Notification resource, URL and expression checks.
import { describe, expect, it } from 'vitest';
import { expressionProblem, urlProblem } from './resource.js';
import { notificationResourceFromRow } from './writeGuards.js';

const A = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('notificationResourceFromRow', () => {
  it('writes a form row as a Notification with durations as text', () => {
    expect(
      notificationResourceFromRow({
        name: 'disk',
        namespace: 'ops',
        events: ['check.failed'],
        title: 'Disk',
        filter: '',
        custom_services: [{ url: 'slack://t@c', properties: { a: 'b' } }],
        properties: { channel: 'ops' },
        repeat_interval: 3_600e9,
        wait_for: '300000000000',
        inhibitions: [],
      }),
    ).toEqual({
      apiVersion: 'mission-control.flanksource.com/v1',
      kind: 'Notification',
      metadata: { name: 'disk', namespace: 'ops' },
      spec: {
        events: ['check.failed'],
        title: 'Disk',
        to: { url: 'slack://t@c', properties: { channel: 'ops' } },
        repeatInterval: '1h',
        waitFor: '5m',
      },
    });
  });

  it('names a person or a team by id', () => {
    expect(notificationResourceFromRow({ name: 'x', events: [], team_id: A }).spec).toMatchObject({ to: { team: A } });
  });
});

describe('checks', () => {
  it('says which URLs no channel reads, and what a channel finds wrong in one', () => {
    expect(urlProblem('slack://xoxb:123-abc@C0123')).toBeUndefined();
    expect(urlProblem('slack://token@channel')).toMatch(/^slack: the token must start with xoxb/);
    expect(urlProblem('generic+https://hooks.example.com/x')).toBeUndefined();
    expect(urlProblem('carrier-pigeon://coop')).toMatch(/no notification channel reads carrier-pigeon:\/\/ URLs/);
    expect(urlProblem('not a url')).toMatch(/scheme:\/\//);
  });

  it('reports CEL and template errors, and accepts an empty expression', () => {
    expect(expressionProblem('cel', "check.type == 'http'")).toBeUndefined();
    expect(expressionProblem('cel', 'check.type ==')).toBeTruthy();
    expect(expressionProblem('template', '{{ .check.name }}')).toBeUndefined();
    expect(expressionProblem('template', '{{ if }}')).toBeTruthy();
    expect(expressionProblem('cel', '  ')).toBeUndefined();
  });
});
