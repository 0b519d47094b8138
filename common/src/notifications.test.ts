// Notification specs shared by the forms and the server: durations in nanoseconds, mission-control
// resources read unchanged, one recipient, silence times, and the row checks of the /api/db guards.
import { describe, expect, it } from 'vitest';
import {
  durationFieldError,
  fallbackRecipient,
  formatDurationNs,
  notificationRowProblems,
  notificationSpecSchema,
  parseDurationNs,
  parseSilenceTime,
  silenceRowProblems,
  silenceSpecSchema,
  silenceWindow,
} from './notifications.js';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('durations', () => {
  it('reads Go-style durations with days, weeks and months into nanoseconds', () => {
    expect(parseDurationNs('5m')).toBe(300e9);
    expect(parseDurationNs('1h30m')).toBe(5400e9);
    expect(parseDurationNs('1d')).toBe(86_400e9);
    expect(parseDurationNs('1mo')).toBe(2_592_000e9);
    expect(parseDurationNs('250ms')).toBe(250e6);
    expect(parseDurationNs('0')).toBe(0);
    expect(parseDurationNs('soon')).toBeUndefined();
    expect(parseDurationNs('')).toBeUndefined();
  });

  it('writes the shortest text back', () => {
    expect(formatDurationNs(5400e9)).toBe('1h30m');
    expect(formatDurationNs(604_800e9)).toBe('1w');
  });

  it('refuses a duration field under one minute with the spec words', () => {
    expect(durationFieldError('30s')).toBe('Duration must be greater than 1 minute');
    expect(durationFieldError('', true)).toBe('This field is required');
    expect(durationFieldError('1m')).toBeUndefined();
  });
});

describe('notificationSpecSchema', () => {
  it('reads a mission-control spec unchanged: inline fallback, inhibit with one from type', () => {
    const r = notificationSpecSchema.safeParse({
      events: ['config.unhealthy'],
      to: { connection: 'connection://slack/alerts', properties: { channel: 'ops', urgent: true } },
      inhibit: [{ direction: 'outgoing', depth: 2, from: 'Kubernetes::Deployment', to: ['Kubernetes::Pod'] }],
      fallback: { team: 'sre', delay: '10m' },
      waitFor: '30s',
    });
    expect(messages(r)).toEqual([]);
    expect(r.data?.inhibit?.[0]?.from).toEqual(['Kubernetes::Deployment']);
    expect(r.data?.to.properties).toEqual({ channel: 'ops', urgent: 'true' });
    expect(fallbackRecipient(r.data!.fallback!)).toEqual({ team: 'sre' });
  });

  it('says once that a repeat interval is not a duration, and once that it is too short', () => {
    const bad = notificationSpecSchema.safeParse({
      events: ['check.failed'],
      to: { email: 'a@b.c' },
      repeatInterval: 'x',
    });
    expect(messages(bad)).toEqual(['repeatInterval: must be a duration such as 5m, 1h or 1d']);
    const short = notificationSpecSchema.safeParse({
      events: ['check.failed'],
      to: { email: 'a@b.c' },
      repeatInterval: '30s',
    });
    expect(messages(short)).toEqual(['repeatInterval: Duration must be greater than 1 minute']);
  });

  it('names an unknown event by index and wants exactly one recipient', () => {
    const r = notificationSpecSchema.safeParse({ events: ['check.failed', 'check.exploded'], to: {} });
    expect(messages(r)).toEqual([
      expect.stringMatching(/^events\.1: unknown event "check\.exploded"/),
      'to: needs one recipient: person, team, email, connection, url or playbook',
    ]);
    const two = notificationSpecSchema.safeParse({ events: ['check.failed'], to: { person: 'a', team: 'b' } });
    expect(messages(two)).toEqual(['to: give one recipient, not person and team']);
  });
});

describe('silences', () => {
  const now = new Date('2025-06-01T12:00:00Z');

  it('reads RFC3339, date-times, now±duration and durations after a base', () => {
    expect(parseSilenceTime('2025-06-01T20:00:00Z', now)?.toISOString()).toBe('2025-06-01T20:00:00.000Z');
    expect(parseSilenceTime('now+2h', now)?.toISOString()).toBe('2025-06-01T14:00:00.000Z');
    expect(parseSilenceTime('now-30m', now)?.toISOString()).toBe('2025-06-01T11:30:00.000Z');
    expect(parseSilenceTime('2h', now, new Date('2025-06-02T00:00:00Z'))?.toISOString()).toBe(
      '2025-06-02T02:00:00.000Z',
    );
    expect(parseSilenceTime('tomorrow', now)).toBeUndefined();
  });

  it('wants something to silence, one resource at most, and until after from', () => {
    expect(messages(silenceSpecSchema.safeParse({ until: 'now+1h' }))).toEqual([
      ': a silence needs a resource (check, canary, component or config), a namespace, selectors or a filter',
    ]);
    expect(messages(silenceSpecSchema.safeParse({ check_id: 'a', component_id: 'b', until: '1h' }))).toEqual([
      'component_id: give one resource, not check_id and component_id',
    ]);
    expect(
      messages(
        silenceSpecSchema.safeParse({ namespace: 'x', from: '2025-06-02T00:00:00Z', until: '2025-06-01T00:00:00Z' }),
      ),
    ).toEqual(['until: must be after from']);
    const ok = silenceSpecSchema.parse({ namespace: 'x', from: '2025-06-01T12:00:00Z', duration: '2h' });
    expect(silenceWindow(ok, now)?.until.toISOString()).toBe('2025-06-01T14:00:00.000Z');
  });
});

describe('row checks of /api/db writes', () => {
  const rule = { name: 'r', events: ['check.failed'], person_id: 'p', repeat_interval: 3_600e9 };

  it('passes a good rule and names each wrong field', () => {
    expect(notificationRowProblems(rule)).toEqual([]);
    expect(
      notificationRowProblems({ ...rule, events: ['nope'], wait_for: 30e9, team_id: 't' }).map((p) => p.field),
    ).toEqual(['events', 'wait_for', 'team_id']);
    expect(notificationRowProblems({ ...rule, person_id: null, custom_services: [{ url: 'x', email: 'y' }] })).toEqual([
      { field: 'custom_services[0]', message: 'needs exactly one of connection, url, email or playbook' },
    ]);
  });

  it('checks a silence row', () => {
    const now = new Date('2025-06-01T12:00:00Z');
    expect(silenceRowProblems({ check_id: 'c', until: '2025-06-01T13:00:00Z' }, now)).toEqual([]);
    expect(silenceRowProblems({ until: '2025-06-01T13:00:00Z' }, now).map((p) => p.field)).toEqual(['check_id']);
    expect(
      silenceRowProblems({ check_id: 'c', from: '2025-06-01T14:00:00Z', until: '2025-06-01T13:00:00Z' }, now),
    ).toEqual([{ field: 'until', message: 'must be after from' }]);
  });
});
