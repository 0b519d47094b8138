// Stage 1 of /api/db: the request (path, query string, headers, body) → a request tree.
// Pure: no database, no schema. Grammar and error texts follow PostgREST 12.
import { ApiError } from './errors.js';
import { parseFilterParam, parseLogicParam, type Condition } from './parseFilter.js';
import {
  isSingular,
  parseInteger,
  parseOrder,
  parsePrefer,
  parseRangeHeader,
  type OrderTerm,
  type Preferences,
} from './parseOptions.js';
import { parseColumnList, parseSelect, type SelectItem } from './parseSelect.js';

// The grammars' tree types and entry points, re-exported: the planner and the tests import stage 1 from here.
export { MAX_NESTING, type Field, type JsonOp, type JsonStep } from './parseCursor.js';
export { parseSelect, type SelectItem } from './parseSelect.js';
export { IS_VALUES, OPERATORS, parseFilterParam, parseLogicParam } from './parseFilter.js';
export type { Condition, Filter, Logic, Operator } from './parseFilter.js';
export { parseOrder, parsePrefer, parseRangeHeader, type OrderTerm, type Preferences } from './parseOptions.js';

/** Conditions, order and limits of the top level (path []) or of an embed (path ['teams']). */
export interface NodeOptions {
  path: string[];
  conditions: Condition[];
  order?: OrderTerm[];
  limit?: number;
  offset?: number;
}

export interface ApiRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
  target: { kind: 'relation' | 'rpc'; name: string };
  select: SelectItem[];
  nodes: Map<string, NodeOptions>;
  /** Non-reserved query parameters of an RPC call, kept raw: arguments or filters, decided by the plan. */
  rpcParams: [string, string][];
  range?: { from: number; to?: number };
  onConflict?: string[];
  columns?: string[];
  prefer: Preferences;
  singular: boolean;
  /** The raw request body (writes and POST rpc). */
  body?: string;
}

export interface RawRequest {
  method: string;
  /** Path below /api/db, e.g. "/people" or "/rpc/fn". */
  path: string;
  query: [string, string][];
  headers: Record<string, string | undefined>;
  body?: string;
}

const RESERVED = new Set(['select', 'columns', 'on_conflict', 'order', 'limit', 'offset', 'and', 'or']);

export function parseRequest(raw: RawRequest): ApiRequest {
  const method = raw.method.toUpperCase();
  if (!['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'].includes(method)) {
    throw new ApiError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
  }
  const target = parseTarget(raw.path);
  const req: ApiRequest = {
    method: method as ApiRequest['method'],
    target,
    select: [{ kind: 'star' }],
    nodes: new Map(),
    rpcParams: [],
    prefer: parsePrefer(raw.headers['prefer']),
    singular: isSingular(raw.headers['accept']),
    body: raw.body,
  };
  const node = (path: string[]): NodeOptions => {
    const key = path.join('.');
    let n = req.nodes.get(key);
    if (!n) req.nodes.set(key, (n = { path, conditions: [] }));
    return n;
  };
  node([]);

  for (const [key, value] of raw.query) {
    if (key === 'select') {
      req.select = parseSelect(value);
      continue;
    }
    if (key === 'columns') {
      req.columns = parseColumnList('columns', value);
      continue;
    }
    if (key === 'on_conflict') {
      req.onConflict = parseColumnList('on_conflict', value);
      continue;
    }
    const { path, last } = splitKey(key);
    if (last === 'order') {
      node(path).order = parseOrder(value);
    } else if (last === 'limit') {
      node(path).limit = parseInteger('limit', value) ?? node(path).limit;
    } else if (last === 'offset') {
      node(path).offset = parseInteger('offset', value) ?? node(path).offset;
    } else if (last === 'and' || last === 'or' || last === 'not.and' || last === 'not.or') {
      node(path).conditions.push(parseLogicParam(last, value));
    } else if (path.length === 0 && target.kind === 'rpc') {
      req.rpcParams.push([key, value]);
    } else if (!RESERVED.has(key)) {
      node(path).conditions.push(parseFilterParam(last, value));
    }
  }
  req.range = parseRangeHeader(raw.headers['range']);
  return req;
}

function parseTarget(path: string): ApiRequest['target'] {
  const parts = path.split('/').filter(Boolean).map(decodeSegment);
  if (parts.length === 2 && parts[0] === 'rpc') return { kind: 'rpc', name: parts[1]! };
  if (parts.length === 1) return { kind: 'relation', name: parts[0]! };
  throw new ApiError(404, 'PGRST125', `Invalid path specified in request URL`);
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new ApiError(404, 'PGRST125', `Invalid path specified in request URL`);
  }
}

/** "teams.people.order" → path [teams, people], last "order"; "not.or" stays whole. */
function splitKey(key: string): { path: string[]; last: string } {
  const parts = key.split('.');
  for (const logic of ['not.and', 'not.or']) {
    if (key === logic || key.endsWith('.' + logic)) {
      return { path: parts.slice(0, -2), last: logic };
    }
  }
  return { path: parts.slice(0, -1), last: parts[parts.length - 1]! };
}
