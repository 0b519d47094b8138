// The Loki log backend: GET {url}/loki/api/v1/query_range with LogQL — the entry's labels and the
// selector as the stream selector, plain text as a `|=` filter, /regex/ as `|~` — or the query
// itself when it starts with `{`; newest first (direction backward), paged by the oldest timestamp.
import { lokiEntrySchema, type LogLine, type LokiEntry } from '@opsdeck/common';
import crypto from 'node:crypto';
import { decodeCursor, encodeCursor } from './query.js';
import { remoteOf, remoteProblems, requestJson } from './remote.js';
import { LogRequestError, type LogBackend, type LogQuery } from './types.js';

interface LokiCursor {
  v: 1;
  /** The oldest timestamp (ns) of the previous page, and the lines at it already shown. */
  end: string;
  seen: string[];
}

const isLokiCursor = (v: unknown): v is LokiCursor =>
  typeof v === 'object' &&
  v !== null &&
  (v as LokiCursor).v === 1 &&
  typeof (v as LokiCursor).end === 'string' &&
  /^\d+$/.test((v as LokiCursor).end) &&
  Array.isArray((v as LokiCursor).seen);

interface LokiAnswer {
  data?: { resultType?: string; result?: { stream?: Record<string, string>; values?: [string, string][] }[] };
}

const quote = (s: string) => JSON.stringify(s);
const ns = (d: Date) => `${BigInt(d.getTime()) * 1_000_000n}`;

/** The LogQL of a query: native as written, else `{labels} |= "text"` or `|~ "regex"`. */
export function logql(entry: LokiEntry, query: LogQuery): string {
  if (query.native) return query.native;
  const labels = { ...entry.labels, ...query.selector };
  const matchers = Object.entries(labels).map(([k, v]) => `${k}=${quote(v)}`);
  if (!matchers.length)
    throw new LogRequestError('Loki needs a label to select streams: give the backend or the component labels');
  const text = query.text.trim();
  const re = /^\/(.+)\/([a-z]*)$/s.exec(text);
  const filter = !text
    ? ''
    : re
      ? ` |~ ${quote(re[2]!.includes('i') ? `(?i)${re[1]}` : re[1]!)}`
      : ` |= ${quote(text)}`;
  return `{${matchers.join(', ')}}${filter}`;
}

export const lokiBackend: LogBackend<LokiEntry> = {
  type: 'loki',
  schema: lokiEntrySchema,

  problems: (entry, ctx) => remoteProblems(entry, ctx.connection),

  async search(entries, query, ctx) {
    const entry = entries[0]!;
    const remote = await remoteOf(entry, ctx);
    const cursor = decodeCursor(query.cursor, isLokiCursor);
    const tenant = entry.tenant ?? remote.target.properties.tenant;
    const seen = new Set(cursor?.seen ?? []);
    const params = new URLSearchParams({
      query: logql(entry, query),
      start: ns(query.start),
      // Loki's end is exclusive: the oldest timestamp shown is asked again, its lines skipped.
      end: cursor ? `${BigInt(cursor.end) + 1n}` : ns(query.end),
      limit: String(query.limit + seen.size),
      direction: 'backward',
    });
    const answer = await requestJson<LokiAnswer>(
      `${remote.base}/loki/api/v1/query_range?${params}`,
      { headers: { ...remote.headers, ...(tenant ? { 'X-Scope-OrgID': tenant } : {}) } },
      ctx,
    );
    const lines: (LogLine & { ns: bigint })[] = [];
    for (const stream of answer.data?.result ?? []) {
      const labels = stream.stream ?? {};
      const key = crypto.createHash('sha1').update(JSON.stringify(labels)).digest('base64url').slice(0, 10);
      for (const [t, message] of stream.values ?? []) {
        const hash = crypto.createHash('sha1').update(message).digest('base64url').slice(0, 10);
        const id = `${key}:${t}:${hash}`;
        if (seen.has(id)) continue;
        const at = BigInt(t);
        lines.push({ id, ns: at, timestamp: new Date(Number(at / 1_000_000n)).toISOString(), message, labels });
      }
    }
    lines.sort((a, b) => (a.ns === b.ns ? 0 : a.ns > b.ns ? -1 : 1));
    const page = lines.slice(0, query.limit);
    const oldest = page.at(-1);
    const full = page.length >= query.limit;
    const atOldest = oldest ? page.filter((l) => l.ns === oldest.ns).map((l) => l.id) : [];
    // Lines at the same oldest timestamp as the previous page stay skipped.
    const carried = oldest && cursor && BigInt(cursor.end) === oldest.ns ? cursor.seen : [];
    return {
      results: page.map(({ ns: _ns, ...l }) => l),
      nextCursor:
        full && oldest
          ? encodeCursor({ v: 1, end: `${oldest.ns}`, seen: [...carried, ...atOldest] } satisfies LokiCursor)
          : null,
    };
  },
};
