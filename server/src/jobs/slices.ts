// Long loops in slices, and background work that gives way to foreground work.
//
// A loop over every check (the edge job's sketches, a summary's figures) holds the event loop for
// its whole length — under a container's CPU quota, seconds — while due checks, timers and sockets
// wait. `slices.due()` says when the loop has run for a slice (by the clock, cheap to ask every
// iteration) and `await slices.pause()` lets timers and I/O in before the next.
//
// Some work has a deadline and some does not: a check is late when it starts after its planned time,
// the minute's edge job or a precomputed summary range is not. Foreground work (a canary's run) is
// counted while under way (`beginForeground`); a background loop's pause (`new Slices({ background:
// true })`) then waits until none is under way, for at most `maxWaitMs` a slice so that it always
// goes on. The CPU it spends is the same; it is spent when the checks do not need it.

/** Lets the event loop run timers and I/O before going on. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let foreground = 0;
/** Settled (and replaced) when foreground work drops to none. */
let idle: { promise: Promise<void>; resolve: () => void } | undefined;

/** Counts work with a deadline as under way until the returned function is called (once is enough). */
export function beginForeground(): () => void {
  foreground++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    foreground--;
    if (foreground === 0 && idle) {
      idle.resolve();
      idle = undefined;
    }
  };
}

/** How much foreground work is under way in this process. */
export const foregroundWork = (): number => foreground;

/** Resolves once no foreground work is under way, or after `ms`. */
function foregroundIdle(ms: number): Promise<void> {
  if (foreground === 0) return Promise.resolve();
  if (!idle) {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    idle = { promise, resolve };
  }
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([idle.promise, new Promise<void>((r) => (timer = setTimeout(r, ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

export interface SlicesOptions {
  /** How long the loop may run before it lets others in (10 ms). */
  sliceMs?: number;
  /** Background work: each pause also waits for the foreground work under way (at most maxWaitMs). */
  background?: boolean;
  /** The longest a background pause waits for foreground work (250 ms). */
  maxWaitMs?: number;
}

export class Slices {
  private since = performance.now();
  private readonly sliceMs: number;
  private readonly background: boolean;
  private readonly maxWaitMs: number;

  constructor(options: SlicesOptions = {}) {
    this.sliceMs = options.sliceMs ?? 10;
    this.background = options.background ?? false;
    this.maxWaitMs = options.maxWaitMs ?? 250;
  }

  /** Whether the loop has run for a slice since it last paused. */
  due(): boolean {
    return performance.now() - this.since >= this.sliceMs;
  }

  /** Lets timers and I/O run (and, for background work, the foreground work finish), then starts a new slice. */
  async pause(): Promise<void> {
    await nextTurn();
    if (this.background) await foregroundIdle(this.maxWaitMs);
    this.since = performance.now();
  }
}
