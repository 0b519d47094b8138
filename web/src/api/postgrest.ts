// Typed builder for /api/db (PostgREST-compatible) requests. Filters are added as method calls
// and every value is encoded here, so no page ever concatenates `name=eq.${value}` itself.
//
//   db<JobRow>('job_history').select('id,name,status').eq('resource_id', id)
//     .in('status', ['FAILED', 'WARNING']).order('created_at', { ascending: false })
//     .page(0, 50).list()          → { data: JobRow[], total: number }
import { request, type ApiResponse } from './client';

type Scalar = string | number | boolean;
type Operator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'ilike';

/** Characters that make PostgREST read a list item or value as syntax, so the item gets quoted. */
const RESERVED = /[,()."'\\:\s]/;

/** One item of an in.(…) list: quoted and escaped when it holds reserved characters. */
export function quoteListItem(value: Scalar): string {
  const text = String(value);
  if (text === '' || RESERVED.test(text) || text === 'null') return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  return text;
}

/** A user's search text as an ilike pattern matching it anywhere (the `*` wildcard is removed from it). */
export function containsPattern(text: string): string {
  return `*${text.replace(/\*/g, '')}*`;
}

export interface ListResult<Row> {
  data: Row[];
  /** From the Content-Range header when a count was asked for. */
  total: number | undefined;
}

/** "0-49/120" → 120; "*\/0" → 0; a missing or "*" total → undefined. */
export function totalFromContentRange(header: string | null): number | undefined {
  const m = header ? /\/(\d+)$/.exec(header) : null;
  return m ? Number(m[1]) : undefined;
}

export class PostgrestQuery<Row> {
  private readonly params = new URLSearchParams();
  private countExact = false;

  constructor(readonly table: string) {}

  select(columns: string): this {
    this.params.set('select', columns);
    return this;
  }

  private filter(column: string, expression: string): this {
    this.params.append(column, expression);
    return this;
  }

  private op(column: string, operator: Operator, value: Scalar, negate = false): this {
    return this.filter(column, `${negate ? 'not.' : ''}${operator}.${String(value)}`);
  }

  eq(column: string, value: Scalar): this {
    return this.op(column, 'eq', value);
  }
  neq(column: string, value: Scalar): this {
    return this.op(column, 'neq', value);
  }
  gt(column: string, value: Scalar): this {
    return this.op(column, 'gt', value);
  }
  gte(column: string, value: Scalar): this {
    return this.op(column, 'gte', value);
  }
  lt(column: string, value: Scalar): this {
    return this.op(column, 'lt', value);
  }
  lte(column: string, value: Scalar): this {
    return this.op(column, 'lte', value);
  }
  like(column: string, pattern: string): this {
    return this.op(column, 'like', pattern);
  }
  ilike(column: string, pattern: string): this {
    return this.op(column, 'ilike', pattern);
  }
  /** `is.null`, `is.true`, `is.false`; `not` for `not.is.null`. */
  is(column: string, value: null | boolean, options: { not?: boolean } = {}): this {
    return this.filter(column, `${options.not ? 'not.' : ''}is.${String(value)}`);
  }
  in(column: string, values: readonly Scalar[]): this {
    return this.filter(column, `in.(${values.map(quoteListItem).join(',')})`);
  }
  notIn(column: string, values: readonly Scalar[]): this {
    return this.filter(column, `not.in.(${values.map(quoteListItem).join(',')})`);
  }
  /** Include and exclude lists of a tri-state filter; empty lists add nothing. */
  includeExclude(column: string, split: { include: readonly Scalar[]; exclude: readonly Scalar[] }): this {
    if (split.include.length) this.in(column, split.include);
    if (split.exclude.length) this.notIn(column, split.exclude);
    return this;
  }

  order(column: string, options: { ascending?: boolean; nulls?: 'first' | 'last' } = {}): this {
    const part = `${column}.${options.ascending === false ? 'desc' : 'asc'}${options.nulls ? `.nulls${options.nulls}` : ''}`;
    const existing = this.params.get('order');
    this.params.set('order', existing ? `${existing},${part}` : part);
    return this;
  }
  limit(n: number): this {
    this.params.set('limit', String(n));
    return this;
  }
  offset(n: number): this {
    this.params.set('offset', String(n));
    return this;
  }
  /** A zero-based page, with the total counted. */
  page(pageIndex: number, pageSize: number): this {
    this.countExact = true;
    return this.limit(pageSize).offset(Math.max(0, pageIndex) * pageSize);
  }
  count(): this {
    this.countExact = true;
    return this;
  }

  toSearchParams(): URLSearchParams {
    return new URLSearchParams(this.params);
  }

  toString(): string {
    const qs = this.params.toString();
    return `/api/db/${this.table}${qs ? `?${qs}` : ''}`;
  }

  async list(signal?: AbortSignal): Promise<ListResult<Row>> {
    const res: ApiResponse<Row[]> = await request<Row[]>(`/api/db/${encodeURIComponent(this.table)}`, {
      query: this.params,
      signal,
      headers: this.countExact ? { Prefer: 'count=exact' } : undefined,
    });
    return { data: res.data ?? [], total: totalFromContentRange(res.headers.get('content-range')) };
  }

  /** The first row, or undefined. */
  async single(signal?: AbortSignal): Promise<Row | undefined> {
    this.limit(1);
    return (await this.list(signal)).data[0];
  }

  /** Inserts rows and returns them as stored. */
  async insert(values: Partial<Row> | Partial<Row>[]): Promise<Row[]> {
    const res = await request<Row[]>(`/api/db/${encodeURIComponent(this.table)}`, {
      method: 'POST',
      query: this.params,
      body: values,
      headers: { Prefer: 'return=representation' },
    });
    return res.data ?? [];
  }

  /** Updates the rows matching the filters added so far. */
  async update(values: Partial<Row>): Promise<Row[]> {
    this.requireFilter('update');
    const res = await request<Row[]>(`/api/db/${encodeURIComponent(this.table)}`, {
      method: 'PATCH',
      query: this.params,
      body: values,
      headers: { Prefer: 'return=representation' },
    });
    return res.data ?? [];
  }

  /** Deletes the rows matching the filters added so far. */
  async delete(): Promise<void> {
    this.requireFilter('delete');
    await request(`/api/db/${encodeURIComponent(this.table)}`, { method: 'DELETE', query: this.params });
  }

  private requireFilter(what: string) {
    const keys = [...this.params.keys()].filter((k) => !['select', 'order', 'limit', 'offset'].includes(k));
    if (!keys.length) throw new Error(`Refusing to ${what} every row of ${this.table}`);
  }
}

export function db<Row = Record<string, unknown>>(table: string): PostgrestQuery<Row> {
  return new PostgrestQuery<Row>(table);
}
