// Giving memory back once large caches are dropped. A server that goes idle allocates little, so
// V8 may not run a full collection for a long time after a cache of several answers (~8 MB each at
// 10,000 checks) was let go, and their pages stay in RSS. releaseMemorySoon() asks for one full
// collection shortly after (at most one a minute), so the dropped objects' memory is freed; with
// glibc, MALLOC_MMAP_THRESHOLD_ (README) makes the freed large blocks go back to the system.
import v8 from 'node:v8';
import vm from 'node:vm';
import { logger } from './log.js';

const log = logger('memory');

/** The collector, from a new context once --expose-gc is set (the main context's global is not changed). */
function collector(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

let gc: (() => void) | undefined | null = null;
let timer: NodeJS.Timeout | undefined;
let last = 0;
/** Full collections asked for so far (tests read it). */
export let fullCollections = 0;

/** Runs one full garbage collection `delayMs` from now unless one ran in the last minute. */
export function releaseMemorySoon(delayMs = 1_000, minGapMs = 60_000): void {
  if (timer) return;
  const wait = Math.max(delayMs, last + minGapMs - Date.now());
  timer = setTimeout(() => {
    timer = undefined;
    last = Date.now();
    if (gc === null) gc = collector();
    if (!gc) return;
    const before = process.memoryUsage();
    const started = performance.now();
    gc();
    fullCollections++;
    const after = process.memoryUsage();
    log.debug(
      {
        ms: Math.round(performance.now() - started),
        heapMb: [before.heapUsed, after.heapUsed].map((b) => Math.round(b / 1_048_576)),
        rssMb: [before.rss, after.rss].map((b) => Math.round(b / 1_048_576)),
      },
      'full collection after caches were dropped',
    );
  }, wait);
  timer.unref();
}
