import { describe, expect, it } from 'vitest';
import type { NotificationRuleRow } from '../types';
import {
  EMPTY_RULE_FORM,
  isEditableRule,
  notificationResourceOf,
  PROPERTIES_NOT_OBJECT,
  REQUIRED,
  ruleFormOfRow,
  ruleFormSchema,
  ruleRowOfForm,
  type RuleFormValues,
} from './ruleForm';

const HOUR = 3600e9;

const row = (over: Partial<NotificationRuleRow> = {}): NotificationRuleRow => ({
  id: 'r1',
  name: 'checks-to-ops',
  title: 'Check {{.check.name}} failed',
  template: 'The check **failed**',
  filter: "check.type == 'http'",
  events: ['check.failed', 'check.passed'],
  person_id: null,
  team_id: null,
  custom_services: [{ url: 'generic+http://127.0.0.1:9/hook' }],
  properties: { priority: 'P1' },
  repeat_interval: 24 * HOUR,
  wait_for: 5 * 60e9,
  source: 'UI',
  error: null,
  created_by: null,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
  ...over,
});

const errorsOf = (v: RuleFormValues) => {
  const r = ruleFormSchema.safeParse(v);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('rule form ↔ row', () => {
  it('reads a stored rule into the form, durations as text', () => {
    const v = ruleFormOfRow(row());
    expect(v).toMatchObject({
      name: 'checks-to-ops',
      events: ['check.failed', 'check.passed'],
      recipientKind: 'others',
      otherKind: 'url',
      url: 'generic+http://127.0.0.1:9/hook',
      repeatInterval: '1d',
      waitFor: '5m',
    });
    expect(JSON.parse(v.properties)).toEqual({ priority: 'P1' });
  });

  it('writes the row back unchanged (durations in nanoseconds, one custom service)', () => {
    const r = row();
    expect(ruleRowOfForm(ruleFormOfRow(r))).toEqual({
      name: r.name,
      title: r.title,
      events: r.events,
      filter: r.filter,
      person_id: null,
      team_id: null,
      custom_services: r.custom_services,
      repeat_interval: r.repeat_interval,
      wait_for: r.wait_for,
      template: r.template,
      properties: r.properties,
      source: 'UI',
    });
  });

  it('keeps only the chosen recipient kind', () => {
    const v = { ...ruleFormOfRow(row()), recipientKind: 'team' as const, teamId: 't1', personId: 'p1' };
    expect(ruleRowOfForm(v)).toMatchObject({ person_id: null, team_id: 't1', custom_services: null });
    expect(ruleFormOfRow(row({ person_id: 'p1', custom_services: null })).recipientKind).toBe('person');
  });

  it('requires a name, events and the recipient of the chosen kind; refuses short durations and non-object properties', () => {
    expect(errorsOf({ ...EMPTY_RULE_FORM })).toEqual({ name: REQUIRED, events: REQUIRED, personId: REQUIRED });
    const v: RuleFormValues = {
      ...EMPTY_RULE_FORM,
      name: 'x',
      events: ['check.failed'],
      recipientKind: 'others',
      otherKind: 'email',
      repeatInterval: '30s',
      properties: '[1]',
    };
    expect(errorsOf(v)).toEqual({
      email: REQUIRED,
      repeatInterval: 'Duration must be greater than 1 minute',
      properties: PROPERTIES_NOT_OBJECT,
    });
    expect(errorsOf({ ...v, email: 'ops@example.com', repeatInterval: '1h', properties: '{"a":1}' })).toEqual({});
  });

  it('builds the Notification resource of the Code tab', () => {
    const v = { ...ruleFormOfRow(row({ person_id: 'p1', custom_services: null })) };
    expect(notificationResourceOf(v, { person: 'ops@example.com' })).toEqual({
      apiVersion: 'mission-control.flanksource.com/v1',
      kind: 'Notification',
      metadata: { name: 'checks-to-ops', namespace: 'default' },
      spec: {
        events: ['check.failed', 'check.passed'],
        title: 'Check {{.check.name}} failed',
        filter: "check.type == 'http'",
        to: { person: 'ops@example.com', properties: { priority: 'P1' } },
        repeatInterval: '1d',
        waitFor: '5m',
        template: 'The check **failed**',
      },
    });
  });

  it('lets only rules made in the console (source UI or none) be changed here', () => {
    expect(isEditableRule({ source: 'UI' })).toBe(true);
    expect(isEditableRule({ source: null })).toBe(true);
    expect(isEditableRule({ source: 'ConfigFile' })).toBe(false);
  });
});
