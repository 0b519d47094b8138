// The card query's answers (GET /api/topology), kept by each replica so that repeated reads of an
// unchanged topology cost one tiny query instead of reading, nesting and serialising every
// component (1,000 components: ~25 ms of CPU a request, most of the console's load; issue 19).
//
// Never older than the rows: an answer is kept with the topology_version counter (0030) read in
// the same snapshot as its rows, and served only while a fresh read of the counter still shows that
// number; any committed change to what the card query reads moves it. The answer depends only on
// the query: who may read it at all is checked before the cache is asked (api.ts), and the card
// query has no per-caller rows (topologies read is all or nothing, spec/3 §6).
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Database } from '../db/database.js';
import { loadTopology, shapeTopology, type TopologyQuery } from './query.js';

const gzip = promisify(zlib.gzip);

export interface CachedTopology {
  /** topology_version when the rows were read. */
  version: string;
  /** The JSON answer (UTF-8). */
  body: Uint8Array<ArrayBuffer>;
  /** Strong validator of the body (a hash, so every replica names the same answer alike). */
  etag: string;
  /** The body gzipped, made on the first request that takes gzip. */
  gzipped?: Promise<Uint8Array<ArrayBuffer>>;
}

export interface TopologyCacheOptions {
  /** Answers kept at most (distinct queries; the least recently used goes first). */
  maxEntries?: number;
  /** Bytes of JSON kept at most, all answers together. */
  maxBytes?: number;
}

const VERSION_SQL = 'SELECT version::text AS version FROM topology_version';

/** The key of a query: its parsed form, so spellings of the same query share an answer. */
export const topologyKey = (q: TopologyQuery): string => JSON.stringify(q);

export class TopologyCache {
  private readonly entries = new Map<string, CachedTopology>();
  /** Reads under way, so the callers that find the same stale answer wait for one read. */
  private readonly loading = new Map<string, { seen: string; answer: Promise<CachedTopology> }>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  hits = 0;
  misses = 0;

  constructor(
    private readonly db: Database,
    options: TopologyCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 32;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  /** The answer to `q` as of now: the kept one when the counter has not moved, else read again. */
  async get(q: TopologyQuery): Promise<CachedTopology> {
    const key = topologyKey(q);
    const { rows } = await this.db.query<{ version: string }>(VERSION_SQL, [], { prepare: 'opsdeck_topology_version' });
    const seen = rows[0]!.version;
    const kept = this.entries.get(key);
    if (kept && kept.version === seen) {
      this.hits++;
      // Most recently used last: eviction takes the first.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    this.misses++;
    const pending = this.loading.get(key);
    // A read that started after this counter value was committed sees at least these rows.
    if (pending && pending.seen === seen) return pending.answer;
    const answer = this.read(q, key);
    this.loading.set(key, { seen, answer });
    try {
      return await answer;
    } finally {
      if (this.loading.get(key)?.answer === answer) this.loading.delete(key);
    }
  }

  /** The gzipped body of an answer (made once per answer). */
  gzipped(entry: CachedTopology): Promise<Uint8Array<ArrayBuffer>> {
    entry.gzipped ??= gzip(entry.body).then((b) => new Uint8Array(b));
    return entry.gzipped;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private async read(q: TopologyQuery, key: string): Promise<CachedTopology> {
    // One snapshot for the counter and every row of the answer.
    const { version, loaded } = await this.db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const { rows } = await tx.query<{ version: string }>(VERSION_SQL);
      return { version: rows[0]!.version, loaded: await loadTopology(tx, q) };
    });
    const body = new TextEncoder().encode(JSON.stringify(shapeTopology(loaded, q)));
    const entry: CachedTopology = {
      version,
      body,
      etag: `"t${crypto.createHash('sha1').update(body).digest('base64url')}"`,
    };
    const kept = this.entries.get(key);
    // A slower read of an older snapshot does not replace a newer answer.
    if (!kept || BigInt(kept.version) <= BigInt(version)) this.store(key, entry);
    return entry;
  }

  private store(key: string, entry: CachedTopology): void {
    this.remove(key);
    // An answer larger than the whole budget is served but not kept.
    if (entry.body.length > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }
}

/** The ETag of the gzipped body: another representation of the same answer. */
export const gzipEtag = (etag: string): string => etag.replace(/"$/, '-gz"');

/** Whether If-None-Match names the answer (`*` or one of its tags, compared weakly, RFC 9110 §13.1.2). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '').replace(/-gz"$/, '"');
  const want = bare(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === want);
}
