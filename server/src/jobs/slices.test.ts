import { describe, expect, it } from 'vitest';
import { beginForeground, foregroundWork, Slices } from './slices.js';

const spin = (ms: number) => {
  for (const end = performance.now() + ms; performance.now() < end;);
};

describe('slices', () => {
  it('are due once the loop has run for a slice, and start again after a pause', async () => {
    const s = new Slices({ sliceMs: 20 });
    expect(s.due()).toBe(false);
    spin(25);
    expect(s.due()).toBe(true);
    await s.pause();
    expect(s.due()).toBe(false);
  });

  it('let a timer run at a pause', async () => {
    const s = new Slices({ sliceMs: 1 });
    let fired = false;
    setTimeout(() => (fired = true), 0);
    spin(5);
    await s.pause();
    expect(fired).toBe(true);
  });

  it('in the background wait for the foreground work under way, and go on once it ends', async () => {
    const end = beginForeground();
    const s = new Slices({ background: true, maxWaitMs: 5_000 });
    const started = performance.now();
    setTimeout(end, 100);
    await s.pause();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(95);
    expect(waited).toBeLessThan(2_000);
    expect(foregroundWork()).toBe(0);
  });

  it('in the background wait at most maxWaitMs, and not at all in the foreground', async () => {
    const end = beginForeground();
    try {
      const started = performance.now();
      await new Slices({ background: true, maxWaitMs: 80 }).pause();
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(75);
      expect(waited).toBeLessThan(1_000);
      const before = performance.now();
      await new Slices().pause();
      expect(performance.now() - before).toBeLessThan(50);
    } finally {
      end();
      end(); // a second call changes nothing
    }
    expect(foregroundWork()).toBe(0);
    const started = performance.now();
    await new Slices({ background: true, maxWaitMs: 5_000 }).pause();
    expect(performance.now() - started).toBeLessThan(50);
  });
});
