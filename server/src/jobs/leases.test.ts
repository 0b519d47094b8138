import { describe, expect, it } from 'vitest';
import { nextRuntime } from './leases.js';

describe('the next run of a leased row', () => {
  it('follows the schedule from the last due time', () => {
    const last = new Date(Date.now() - 10_000);
    expect(nextRuntime({ schedule: '@every 1h', next_runtime: last }, 60_000).getTime()).toBe(
      last.getTime() + 3_600_000,
    );
  });

  it('starts from now when the next time after the last has passed already', () => {
    const before = Date.now();
    const next = nextRuntime({ schedule: '@every 1m', next_runtime: new Date(before - 3_600_000) }, 1);
    expect(next.getTime()).toBeGreaterThanOrEqual(before + 60_000);
  });

  it('tries again after retryMs when the schedule does not parse', () => {
    const before = Date.now();
    const next = nextRuntime({ schedule: 'not a schedule', next_runtime: new Date() }, 5 * 60_000);
    expect(next.getTime()).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(next.getTime()).toBeLessThan(before + 6 * 60_000);
  });
});
