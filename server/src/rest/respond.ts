// Stage 4 of /api/db: the statement's result row → HTTP status, headers and body, as PostgREST answers.
import { ApiError } from './errors.js';
import type { Plan } from './plan.js';

export interface ResultRow {
  total: string | number | null;
  page_total: string | number;
  body: string | null;
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

  if (plan.singular && (plan.kind !== 'rpc' || plan.root || plan.fn.returnsSet)) {
    if (pageTotal !== 1) throw singularError(pageTotal);
    if (body !== null) body = unwrapSingle(body);
  }

  switch (plan.kind) {
    case 'read':
    case 'rpc': {
      if (plan.kind === 'rpc' && !plan.root) {
        if (plan.fn.returnType === 'void') return { status: 204, headers: {}, body: null };
        if (!plan.fn.returnsSet && body !== null) body = unwrapSingle(body);
        return { status: 200, headers: { 'content-type': JSON_TYPE }, body: method === 'HEAD' ? null : body };
      }
      if (plan.kind === 'rpc' && !plan.fn.returnsSet && !plan.singular && body !== null) {
        // A function returning one row answers with the object itself.
        body = pageTotal === 0 ? 'null' : unwrapSingle(body);
        return { status: 200, headers, body: method === 'HEAD' ? null : body };
      }
      const lower = plan.offset;
      const upper = lower + pageTotal - 1;
      headers['content-range'] = `${pageTotal === 0 ? '*' : `${lower}-${upper}`}/${total ?? '*'}`;
      let status = 200;
      if (total !== null) {
        if (lower > total || (lower > 0 && lower === total && pageTotal === 0 && total > 0)) {
          throw new ApiError(
            416,
            'PGRST103',
            'Requested range not satisfiable',
            `An offset of ${lower} was requested, but there are only ${total} rows.`,
          );
        }
        if (pageTotal < total && pageTotal > 0) status = 206;
      }
      return { status, headers, body: method === 'HEAD' ? null : body };
    }
    case 'insert':
    case 'update':
    case 'delete': {
      const represent = plan.returning !== null;
      headers['content-range'] = pageTotal === 0 || plan.kind === 'insert' ? '*/*' : `0-${pageTotal - 1}/*`;
      if (plan.kind === 'insert') return { status: 201, headers, body: represent ? body : null };
      return represent ? { status: 200, headers, body } : { status: 204, headers, body: null };
    }
  }
}
