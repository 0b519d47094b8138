import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as memory from './memory.js';

/** Objects that live through a few scavenges make V8 grow its semi-spaces (up to 2 × 16 MB). */
function burst() {
  let live: Array<{ i: number; s: string }> = [];
  for (let i = 0; i < 3_000_000; i++) {
    live.push({ i, s: `item ${i}` });
    if (live.length >= 100_000) live = [];
  }
  live = [];
  expect(memory.youngGenerationBytes()).toBeGreaterThan(memory.YOUNG_AT_REST_BYTES);
}

describe('releaseMemorySoon after a burst of allocation', () => {
  // Unit test files share this module (isolate: false): no round of another test may be pending.
  beforeEach(() => memory.stopReleasing());

  it('collects again until V8 gives back the young generation the burst grew', async () => {
    burst();
    const before = memory.fullCollections;
    memory.releaseMemorySoon(10, 0, 1_500);
    // The first collection comes right after the burst, when V8 still sees a high allocation rate;
    // one of the next ones (V8 looks back ~5 s) gives the young generation back.
    await vi.waitFor(() => expect(memory.youngGenerationBytes()).toBeLessThanOrEqual(memory.YOUNG_AT_REST_BYTES), {
      timeout: 12_000,
      interval: 250,
    });
    expect(memory.fullCollections).toBeGreaterThan(before + 1);
  }, 20_000);

  it('watchMemory starts such a round by itself when the young generation has grown', async () => {
    const stop = memory.watchMemory({ everyMs: 500, retryMs: 1_500 });
    try {
      burst();
      const before = memory.fullCollections;
      await vi.waitFor(() => expect(memory.youngGenerationBytes()).toBeLessThanOrEqual(memory.YOUNG_AT_REST_BYTES), {
        timeout: 14_000,
        interval: 250,
      });
      expect(memory.fullCollections).toBeGreaterThan(before);
    } finally {
      stop();
    }
  }, 20_000);

  it('watchMemory collects when Buffers grew well past what the last collection left', async () => {
    const external = () => process.memoryUsage().external;
    // The watch looks every 100 ms: it must see the Buffers before a minor collection brought by the
    // worker's other allocation frees them on its own.
    const stop = memory.watchMemory({ everyMs: 100, retryMs: 1_500 });
    try {
      // Let a round settle what is there now, then drop 40 MB of Buffers: less than an idle V8
      // waits for before it collects for external memory (~64 MB), more than the watch's slack.
      await vi.waitFor(() => expect(memory.youngGenerationBytes()).toBeLessThanOrEqual(memory.YOUNG_AT_REST_BYTES), {
        timeout: 14_000,
        interval: 250,
      });
      await new Promise((r) => setTimeout(r, 1_500));
      const base = external();
      let bufs: Buffer[] | undefined = Array.from({ length: 40 }, () => Buffer.alloc(1_048_576, 1));
      expect(external()).toBeGreaterThan(base + memory.EXTERNAL_SLACK_BYTES);
      bufs = undefined;
      const before = memory.fullCollections;
      // The watch's round runs (a second after it saw them), and the 40 MB are gone (what else the
      // worker allocates meanwhile may add a little).
      await vi.waitFor(() => expect(memory.fullCollections).toBeGreaterThan(before), { timeout: 5_000, interval: 50 });
      await vi.waitFor(() => expect(external()).toBeLessThan(base + 24 * 1_048_576), { timeout: 5_000, interval: 100 });
      expect(bufs).toBeUndefined();
    } finally {
      stop();
    }
  }, 30_000);
});
