import { describe, expect, it } from 'vitest';
import {
  expandWindow,
  expandWindows,
  MAX_OCCURRENCES,
  windowCron,
  windowDurationMs,
  type MaintenanceWindowRow,
} from './windows.js';

const row = (over: Partial<MaintenanceWindowRow>): MaintenanceWindowRow => ({
  id: '00000000-0000-0000-0000-000000000001',
  name: 'w',
  message: '',
  starts_at: null,
  ends_at: null,
  schedule: null,
  duration: null,
  timezone: null,
  check_ids: [],
  component_ids: [],
  status_pages: [],
  silence: true,
  ...over,
});
const d = (s: string) => new Date(s);
const iso = (spans: { start: Date; end: Date }[]) => spans.map((s) => [s.start.toISOString(), s.end.toISOString()]);

describe('expandWindow', () => {
  it('yields a one-off window only when it overlaps the range', () => {
    const w = row({ starts_at: d('2026-03-01T10:00:00Z'), ends_at: d('2026-03-01T12:00:00Z') });
    expect(iso(expandWindow(w, d('2026-03-01T11:00:00Z'), d('2026-03-01T11:00:00Z')))).toEqual([
      ['2026-03-01T10:00:00.000Z', '2026-03-01T12:00:00.000Z'],
    ]);
    expect(expandWindow(w, d('2026-03-01T12:00:00Z'), d('2026-03-02T00:00:00Z'))).toEqual([]);
    expect(expandWindow(w, d('2026-03-01T08:00:00Z'), d('2026-03-01T09:59:59Z'))).toEqual([]);
    expect(expandWindow(w, d('2026-03-01T08:00:00Z'), d('2026-03-01T10:00:00Z'))).toHaveLength(1);
  });

  it('expands a cron window into runs of its duration, including one that began before the range', () => {
    const w = row({ schedule: '0 2 * * *', duration: '2h' });
    expect(iso(expandWindow(w, d('2026-03-01T03:00:00Z'), d('2026-03-03T01:00:00Z')))).toEqual([
      ['2026-03-01T02:00:00.000Z', '2026-03-01T04:00:00.000Z'],
      ['2026-03-02T02:00:00.000Z', '2026-03-02T04:00:00.000Z'],
    ]);
    // A run that ended exactly at `from` does not overlap; one starting exactly at `to` does.
    expect(iso(expandWindow(w, d('2026-03-01T04:00:00Z'), d('2026-03-02T02:00:00Z')))).toEqual([
      ['2026-03-02T02:00:00.000Z', '2026-03-02T04:00:00.000Z'],
    ]);
  });

  it('reads the cron in the window time zone, across a daylight-saving change', () => {
    const w = row({ schedule: '0 2 * * 0', duration: '1h', timezone: 'Europe/Berlin' });
    // Sundays 02:00 Berlin: 01:00Z in winter (CET), 00:00Z in summer (CEST); 2026-03-29 02:00 does not exist.
    const spans = iso(expandWindow(w, d('2026-03-20T00:00:00Z'), d('2026-04-06T00:00:00Z')));
    expect(spans[0]).toEqual(['2026-03-22T01:00:00.000Z', '2026-03-22T02:00:00.000Z']);
    expect(spans.at(-1)).toEqual(['2026-04-05T00:00:00.000Z', '2026-04-05T01:00:00.000Z']);
  });

  it('is active at an instant inside a run (from = to)', () => {
    const w = row({ schedule: '@hourly', duration: '10m' });
    expect(iso(expandWindow(w, d('2026-03-01T05:05:00Z'), d('2026-03-01T05:05:00Z')))).toEqual([
      ['2026-03-01T05:00:00.000Z', '2026-03-01T05:10:00.000Z'],
    ]);
    expect(expandWindow(w, d('2026-03-01T05:10:00Z'), d('2026-03-01T05:10:00Z'))).toEqual([]);
    // Overlapping runs (every minute, each a week long): one is enough to say it is in progress.
    const always = row({ schedule: '* * * * *', duration: '7d' });
    const t = Date.now();
    expect(expandWindow(always, d('2026-03-01T05:05:00Z'), d('2026-03-01T05:05:00Z'))).toHaveLength(1);
    expect(Date.now() - t).toBeLessThan(2_000); // not 10,080 runs
  });

  it('caps the runs of a very frequent schedule and yields nothing for a schedule that no longer parses', () => {
    const w = row({ schedule: '* * * * *', duration: '30s' });
    expect(expandWindow(w, d('2026-01-01T00:00:00Z'), d('2027-01-01T00:00:00Z'))).toHaveLength(MAX_OCCURRENCES);
    expect(expandWindow(row({ schedule: 'not cron', duration: '1h' }), d('2026-01-01'), d('2026-02-01'))).toEqual([]);
    expect(expandWindow(row({}), d('2026-01-01'), d('2026-02-01'))).toEqual([]);
  }, 60_000);

  it('sorts occurrences of several windows by start and carries what they cover', () => {
    const out = expandWindows(
      [
        row({ id: 'b', name: 'b', schedule: '0 3 * * *', duration: '1h', check_ids: ['c1'] }),
        row({ id: 'a', name: 'a', starts_at: d('2026-03-01T01:00:00Z'), ends_at: d('2026-03-01T05:00:00Z') }),
      ],
      d('2026-03-01T00:00:00Z'),
      d('2026-03-01T23:00:00Z'),
    );
    expect(out.map((o) => [o.name, o.start.toISOString(), o.checkIds])).toEqual([
      ['a', '2026-03-01T01:00:00.000Z', []],
      ['b', '2026-03-01T03:00:00.000Z', ['c1']],
    ]);
  });
});

describe('window validation', () => {
  it('explains bad schedules, zones and durations', () => {
    expect(() => windowCron('@every 1h')).toThrow(/@every has no fixed start/);
    expect(() => windowCron('61 * * * *')).toThrow(/is not a cron expression/);
    expect(() => windowCron('0 2 * * *', 'Mars/Olympus')).toThrow(/not a time zone name/);
    expect(windowCron('0 2 * * 0', 'America/New_York').nextRun(d('2026-01-01'))).toBeInstanceOf(Date);
    expect(() => windowDurationMs('soon')).toThrow(/duration: "soon" is not a duration/);
    expect(() => windowDurationMs('0s')).toThrow(/longer than zero/);
    expect(() => windowDurationMs('40d')).toThrow(/maximum of 31d/);
    expect(windowDurationMs('1h30m')).toBe(5_400_000);
  });
});
