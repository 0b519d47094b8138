import { beforeEach, describe, expect, it } from 'vitest';
import * as memory from './memory.js';

describe('releaseMemorySoon', () => {
  // Unit test files share this module (isolate: false): no round of another test may be pending.
  beforeEach(() => memory.stopReleasing());

  it('runs one full collection soon after, which frees what nothing holds any more', async () => {
    let big: number[] | undefined = Array.from({ length: 100_000 }, (_, i) => i);
    const ref = new WeakRef(big);
    big = undefined;
    const before = memory.fullCollections;
    memory.releaseMemorySoon(10, 0);
    memory.releaseMemorySoon(10, 0); // one at a time: the second call joins the first
    await new Promise((r) => setTimeout(r, 200));
    expect(memory.fullCollections).toBe(before + 1);
    expect(ref.deref()).toBeUndefined();
  });

  it('runs at most one collection per gap', async () => {
    memory.releaseMemorySoon(10, 0);
    await new Promise((r) => setTimeout(r, 100));
    const after = memory.fullCollections;
    memory.releaseMemorySoon(10, 60_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(memory.fullCollections).toBe(after);
  });

  it('brings a round that waits longer forward when asked for one sooner', async () => {
    const before = memory.fullCollections;
    memory.releaseMemorySoon(30_000, 0); // as the watch's busy gap would
    memory.releaseMemorySoon(10, 0); // caches dropped now
    await new Promise((r) => setTimeout(r, 300));
    expect(memory.fullCollections).toBe(before + 1);
  });
});
