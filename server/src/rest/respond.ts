// Stage 4 of /api/db: the statement's result row → HTTP status, headers and body, as PostgREST answers.
import { ApiError } from './errors.js';
import type { Plan } from './plan.js';

export interface ResultRow {
  total: string | number | null;
  page_total: string | number;
  body: string | null;
  /** Rows an upsert inserted (as opposed to updated). */
  inserted?: string | number | null;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

/** Thrown inside the write transaction so a singular request that touched ≠ 1 row changes nothing. */
export function singularError(rows: number): ApiError {
  return new ApiError(
    406,
    'PGRST116',
    'JSON object requested, multiple (or no) rows returned',
    `The result contains ${rows} rows`,
  );
}

/** "[x]" → "x": json_agg output of exactly one element. */
function unwrapSingle(body: string): string {
  const trimmed = body.trim();
  return trimmed.slice(1, -1).trim();
}

export function respond(plan: Plan, row: ResultRow, method: string): ApiResponse {
  const pageTotal = Number(row.page_total);
  const total = row.total === null || row.total === undefined ? null : Number(row.total);
  const headers: Record<string, string> = { 'content-type': plan.singular ? OBJECT_TYPE : JSON_TYPE };
  let body = row.body;
  const rowsReturned = plan.kind !== 'rpc' || plan.root !== null || plan.fn.returnsSet;

  if (plan.singular && rowsReturned) {
    if (pageTotal !== 1) throw singularError(pageTotal);
    if (body !== null) body = unwrapSingle(body);
  }
  const head = method === 'HEAD';

  switch (plan.kind) {
    case 'read':
    case 'rpc': {
      if (plan.kind === 'rpc' && plan.fn.returnType === 'void') return { status: 204, headers: {}, body: null };
      // A function returning one value or one row answers with the value or object itself.
      if (plan.kind === 'rpc' && !plan.fn.returnsSet && !plan.singular && body !== null) {
        body = pageTotal === 0 ? 'null' : unwrapSingle(body);
      }
      const lower = plan.offset;
      const upper = lower + pageTotal - 1;
      const range = (t: string) => `${pageTotal === 0 ? '*' : `${lower}-${upper}`}/${t}`;
      if (total === null) {
        headers['content-range'] = range('*');
        return { status: 200, headers, body: head ? null : body };
      }
      if (lower > total) {
        throw new ApiError(
          416,
          'PGRST103',
          'Requested range not satisfiable',
          `An offset of ${lower} was requested, but there are only ${total} rows.`,
        ).withHeader('content-range', `*/${total}`);
      }
      headers['content-range'] = range(String(total));
      return { status: pageTotal < total ? 206 : 200, headers, body: head ? null : body };
    }
    case 'insert':
    case 'update':
    case 'delete': {
      const represent = plan.returning !== null;
      const counted = plan.count ? String(pageTotal) : '*';
      headers['content-range'] =
        plan.kind === 'update' && pageTotal > 0 ? `0-${pageTotal - 1}/${counted}` : `*/${counted}`;
      if (plan.kind === 'insert') {
        // An upsert that only updated existing rows answers 200, as PostgREST does.
        const status = plan.onConflict && Number(row.inserted ?? 0) === 0 && pageTotal > 0 ? 200 : 201;
        return { status, headers, body: represent ? body : null };
      }
      return represent ? { status: 200, headers, body } : { status: 204, headers, body: null };
    }
  }
}
