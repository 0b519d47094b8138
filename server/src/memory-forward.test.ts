import { describe, expect, it } from 'vitest';
import * as memory from './memory.js';

// Its own file: a round of another test (or its retries) must not be pending.
describe('releaseMemorySoon while a round waits', () => {
  it('brings a round that waits longer forward when asked for one sooner', async () => {
    const before = memory.fullCollections;
    memory.releaseMemorySoon(30_000, 0); // as the watch's busy gap would
    memory.releaseMemorySoon(10, 0); // caches dropped now
    await new Promise((r) => setTimeout(r, 300));
    expect(memory.fullCollections).toBe(before + 1);
  });
});
