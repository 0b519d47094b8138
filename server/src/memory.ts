// Giving memory back once large caches are dropped. A server that goes idle allocates little, so
// V8 may not run a full collection for a long time after a cache of several answers (~8 MB each at
// 10,000 checks) was let go, and their pages stay in RSS. releaseMemorySoon() asks for a full
// collection shortly after (at most one round a minute), so the dropped objects' memory is freed;
// with glibc, MALLOC_MMAP_THRESHOLD_ (README) makes the freed large blocks go back to the system.
//
// V8 gives back its young generation (up to 2 × 16 MB of semi-spaces, grown under the answers'
// allocation) only in a full collection that finds the allocation rate low over its last few
// seconds; one right after a burst (a request, the edge job's minute) keeps it. So a round
// collects again every 10 s, a few times, until the young generation is back to its size at rest.
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
/** Full collections run so far (tests read it). */
export let fullCollections = 0;

/** The young generation at rest is a semi-space pair of 1 MB or so; above this it was grown. */
export const YOUNG_AT_REST_BYTES = 4 * 1_048_576;
const RETRIES = 5;

/** Bytes V8 holds for its young generation now. */
export function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

function collect(): boolean {
  if (gc === null) gc = collector();
  if (!gc) return false;
  const before = process.memoryUsage();
  const started = performance.now();
  gc();
  fullCollections++;
  const after = process.memoryUsage();
  externalAfterGc = after.external;
  log.debug(
    {
      ms: Math.round(performance.now() - started),
      heapMb: [before.heapUsed, after.heapUsed].map((b) => Math.round(b / 1_048_576)),
      rssMb: [before.rss, after.rss].map((b) => Math.round(b / 1_048_576)),
      youngMb: Math.round(youngGenerationBytes() / 1_048_576),
    },
    'full collection after caches were dropped',
  );
  return true;
}

/**
 * Runs a full garbage collection `delayMs` from now unless a round started in the last `minGapMs`,
 * then again every `retryMs` (up to 5 more) while V8 still holds a grown young generation.
 */
export function releaseMemorySoon(delayMs = 1_000, minGapMs = 60_000, retryMs = 10_000): void {
  const wait = Math.max(delayMs, last + minGapMs - Date.now());
  // One round at a time; a round waiting longer (the watch's busy gap) is brought forward.
  if (timer && (retrying || Date.now() + wait >= due)) return;
  clearTimeout(timer);
  let tries = 0;
  const round = () => {
    timer = undefined;
    retrying = false;
    if (tries === 0) last = Date.now();
    if (!collect()) return;
    const grown = youngGenerationBytes() > YOUNG_AT_REST_BYTES;
    if (grown && ++tries <= RETRIES) {
      retrying = true;
      timer = setTimeout(round, retryMs);
      timer.unref();
    } else fruitless = grown;
  };
  due = Date.now() + wait;
  timer = setTimeout(round, wait);
  timer.unref();
}

/** When the round waiting to start will start, and whether the pending one is a round's retry. */
let due = 0;
let retrying = false;

/** Drops the round waiting to run, if any (shutdown; tests, whose files share this module). */
export function stopReleasing(): void {
  clearTimeout(timer);
  timer = undefined;
  retrying = false;
  last = 0;
}

/** Whether the last round ended with the young generation still grown (the process was busy). */
let fruitless = false;
/** Memory outside V8's heap (Buffers) after the last full collection (the lowest seen since). */
let externalAfterGc = 0;
/**
 * How far Buffers may grow past that before the watch collects: a summary read's buffers (~6 MB
 * each at 10,000 checks) are freed only by a collection, which an idle V8 runs for external memory
 * only some 64 MB later.
 */
export const EXTERNAL_SLACK_BYTES = 32 * 1_048_576;

/**
 * Every `everyMs`, a round as above when V8 holds a grown young generation or Buffers grew by
 * EXTERNAL_SLACK_BYTES since the last full collection: the work that comes every minute on an idle
 * replica (the edge job, the refresh of the usual summary ranges) allocates both, and an idle V8
 * collects late. After a round that could not shrink the young generation (the process is busy, and
 * uses it), the next for that reason waits `busyGapMs`.
 */
export function watchMemory({ everyMs = 60_000, busyGapMs = 10 * 60_000, retryMs = 10_000 } = {}): () => void {
  const watch = setInterval(() => {
    // V8 frees the Buffers a collection found dead on a background thread, after it returns: the
    // figure read right after may still count them, so the lowest seen since is the mark.
    const external = process.memoryUsage().external;
    externalAfterGc = Math.min(externalAfterGc, external);
    if (external > externalAfterGc + EXTERNAL_SLACK_BYTES) releaseMemorySoon(1_000, everyMs, retryMs);
    else if (youngGenerationBytes() > YOUNG_AT_REST_BYTES)
      releaseMemorySoon(1_000, fruitless ? busyGapMs : everyMs, retryMs);
  }, everyMs);
  watch.unref();
  return () => clearInterval(watch);
}
