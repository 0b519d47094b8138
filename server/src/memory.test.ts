import { describe, expect, it } from 'vitest';
import * as memory from './memory.js';

describe('releaseMemorySoon', () => {
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
});
