import { describe, expect, it } from 'vitest';
import { HttpError } from '../auth/middleware.js';
import { parseSnapshotQuery, parseSnapshotTime } from './snapshot.js';

const now = new Date('2026-03-10T12:00:00Z');
const id = '5b0c8f3e-8d4e-4a7b-9a51-0c1f3b2d4e6f';

describe('snapshot time range', () => {
  it('reads relative expressions, bare durations, ISO dates and epoch milliseconds', () => {
    expect(parseSnapshotTime('start', 'now-2d', now).toISOString()).toBe('2026-03-08T12:00:00.000Z');
    expect(parseSnapshotTime('start', '1h', now).toISOString()).toBe('2026-03-10T11:00:00.000Z');
    for (const far of ['99999999999999999', '8000000000000000', 'now-99999999y'])
      expect(() => parseSnapshotTime('start', far, now), far).toThrow(/start ".*" is not a time range/);
    expect(parseSnapshotTime('start', '2026-03-01T00:00:00Z', now).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(parseSnapshotTime('start', String(now.getTime() - 1000), now).getTime()).toBe(now.getTime() - 1000);
  });

  it('refuses what is not a time with a message naming the field', () => {
    for (const bad of ['yesterday', 'now-2x', '', 'now-']) {
      const err = (() => {
        try {
          parseSnapshotTime('start', bad, now);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).status).toBe(400);
      expect((err as HttpError).message).toMatch(/^start ".*" is not a time range/);
    }
  });

  it('defaults to the last 2 days without related items', () => {
    const q = parseSnapshotQuery(id, {}, now);
    expect(q).toEqual({ id, start: new Date('2026-03-08T12:00:00Z'), end: now, related: false });
    expect(parseSnapshotQuery(id, { related: 'true', start: 'now-7d' }, now).related).toBe(true);
  });

  it('answers 404 for an id that is not a UUID and 400 for a range that ends before it starts', () => {
    expect(() => parseSnapshotQuery('nope', {}, now)).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => parseSnapshotQuery(id, { start: 'now+1h' }, now)).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => parseSnapshotQuery(id, { start: 'now-1h', end: 'now-2h' }, now)).toThrow(
      expect.objectContaining({ status: 400 }),
    );
    expect(() => parseSnapshotQuery(id, { related: 'maybe' }, now)).toThrow(
      expect.objectContaining({ status: 400, field: 'related' }),
    );
  });
});
