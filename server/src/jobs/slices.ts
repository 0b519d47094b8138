// Long loops in slices. A loop over every check (the edge job's sketches, a summary's figures) holds
// the event loop for its whole length — under a container's CPU quota, seconds — while due checks,
// timers and sockets wait. `slices.due()` says when the loop has run for a slice (by the clock,
// cheap to ask every iteration) and `await slices.pause()` lets timers and I/O in before the next.
// The work costs the same CPU; it no longer stops everything else while it runs.

/** Lets the event loop run timers and I/O before going on. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class Slices {
  private since = performance.now();

  /** `sliceMs`: how long the loop may run before it lets others in. */
  constructor(private readonly sliceMs = 10) {}

  /** Whether the loop has run for a slice since it last paused. */
  due(): boolean {
    return performance.now() - this.since >= this.sliceMs;
  }

  /** Lets timers and I/O run, then starts a new slice. */
  async pause(): Promise<void> {
    await nextTurn();
    this.since = performance.now();
  }
}
