// The OpenSearch / Elasticsearch log backend: POST {url}/{index}/_search with the query as a
// query_string (`*` for none), a range on the timestamp field, the selector as match_phrase
// filters, newest first, paged with search_after.
import { opensearchEntrySchema, type LogLine, type OpenSearchEntry } from '@opsdeck/common';
import { decodeCursor, encodeCursor } from './query.js';
import { remoteOf, remoteProblems, requestJson } from './remote.js';
import type { LogBackend } from './types.js';

interface SearchCursor {
  v: 1;
  after: unknown[];
}

const isSearchCursor = (v: unknown): v is SearchCursor =>
  typeof v === 'object' && v !== null && (v as SearchCursor).v === 1 && Array.isArray((v as SearchCursor).after);

interface Hit {
  _id: string;
  _index?: string;
  _source?: Record<string, unknown>;
  sort?: unknown[];
}

interface SearchAnswer {
  hits?: { total?: number | { value?: number }; hits?: Hit[] };
}

/** A field by dotted path (`log.level`), as stored nested or flat. */
function field(source: Record<string, unknown>, name: string): unknown {
  if (name in source) return source[name];
  return name
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), source);
}

/** The document's other fields as labels: text, numbers and booleans, one level of nesting, at most 30. */
function labelsOf(source: Record<string, unknown>, skip: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (key: string, v: unknown, depth: number) => {
    if (Object.keys(out).length >= 30 || skip.has(key)) return;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
    else if (v && typeof v === 'object' && !Array.isArray(v) && depth < 1)
      for (const [k, x] of Object.entries(v)) add(`${key}.${k}`, x, depth + 1);
  };
  for (const [k, v] of Object.entries(source)) add(k, v, 0);
  return out;
}

export const opensearchBackend: LogBackend<OpenSearchEntry> = {
  type: 'opensearch',
  schema: opensearchEntrySchema,

  problems: (entry, ctx) => remoteProblems(entry, ctx.connection),

  async search(entries, query, ctx) {
    const entry = entries[0]!;
    const remote = await remoteOf(entry, ctx);
    const cursor = decodeCursor(query.cursor, isSearchCursor);
    const ts = entry.timestampField ?? '@timestamp';
    const msg = entry.messageField ?? 'message';
    const labels = { ...entry.labels, ...query.selector };
    const body = {
      size: query.limit,
      track_total_hits: true,
      query: {
        bool: {
          must: [{ query_string: { query: query.text.trim() || '*', default_field: msg } }],
          filter: [
            {
              range: {
                [ts]: {
                  gte: query.start.toISOString(),
                  lte: query.end.toISOString(),
                  format: 'strict_date_optional_time',
                },
              },
            },
            ...Object.entries(labels).map(([k, v]) => ({ match_phrase: { [k]: v } })),
          ],
        },
      },
      sort: [{ [ts]: { order: 'desc' } }, { _doc: { order: 'desc' } }],
      ...(cursor ? { search_after: cursor.after } : {}),
    };
    const index = encodeURIComponent(entry.index).replace(/%2C/gi, ',').replace(/%2A/gi, '*');
    const answer = await requestJson<SearchAnswer>(
      `${remote.base}/${index}/_search`,
      {
        method: 'POST',
        headers: { ...remote.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      ctx,
    );
    const hits = answer.hits?.hits ?? [];
    const total = answer.hits?.total;
    const skip = new Set([ts, msg]);
    const results: LogLine[] = hits.map((h) => {
      const source = h._source ?? {};
      const message = field(source, msg);
      const time = field(source, ts);
      const at = typeof time === 'string' || typeof time === 'number' ? new Date(time) : undefined;
      return {
        id: h._id,
        timestamp: at && !Number.isNaN(at.getTime()) ? at.toISOString() : new Date(0).toISOString(),
        message: typeof message === 'string' ? message : JSON.stringify(message ?? source),
        labels: { ...labelsOf(source, skip), ...(h._index ? { index: h._index } : {}) },
      };
    });
    const last = hits.at(-1);
    return {
      total: typeof total === 'number' ? total : total?.value,
      results,
      nextCursor:
        hits.length >= query.limit && last?.sort
          ? encodeCursor({ v: 1, after: last.sort } satisfies SearchCursor)
          : null,
    };
  },
};
