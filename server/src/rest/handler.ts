// /api/db: parse → plan → SQL → execute → respond, and PostgREST-style errors.
import { Hono, type Context, type Env } from 'hono';
import type { AppContext } from '../app.js';
import { isPgError, type Queryable } from '../db/database.js';
import { ApiError, fromPgError } from './errors.js';
import { parseRequest } from './parse.js';
import { plan as makePlan, type Access, type Plan } from './plan.js';
import { respond, type ApiResponse, type ResultRow } from './respond.js';
import { StatementNames } from './prepared.js';
import { buildSql } from './sql.js';
import { sealBody } from '../secrets.js';
import { bodyRows, type WriteGuardInput, type WriteGuards, type WriteSyncs } from './writeGuards.js';
import { checkDelete, type DeleteRules } from './deleteRules.js';

export interface RestHooks<E extends Env = Env> {
  /** Decides whether the caller may touch these resources; throws an ApiError when not. */
  authorize?(c: Context<E>, access: Access[]): void | Promise<void>;
  /** Called after a write to a relation committed. */
  afterWrite?(relation: string): void;
  /** Called inside a write's transaction before its statement (e.g. to set the caller for triggers). */
  beforeWrite?(tx: Queryable, c: Context<E>): Promise<void>;
  /** Validators of rows written to a relation (see writeGuards.ts), by relation name. */
  writeGuards?: WriteGuards;
  /** What follows a guarded write once it committed (a resource's checks, components...), by relation name. */
  writeSyncs?: WriteSyncs;
  /** What a DELETE of a guarded relation does (see deleteRules.ts), by relation name. */
  deleteRules?: DeleteRules;
}

export function restRoutes<E extends Env = Env>(ctx: AppContext, hooks: RestHooks<E> = {}): Hono<E> {
  const app = new Hono<E>();
  app.all('/*', async (c) => {
    try {
      const url = new URL(c.req.url);
      const path = url.pathname.replace(/^.*?\/api\/db/, '');
      const method = c.req.method;
      const body = method === 'GET' || method === 'HEAD' ? undefined : await c.req.text();
      const req = parseRequest({
        method,
        path,
        query: [...url.searchParams.entries()],
        headers: { prefer: c.req.header('prefer'), accept: c.req.header('accept'), range: c.req.header('range') },
        body,
      });
      // A guarded relation's rows are validated (after the caller may write at all) before anything else.
      const guard = hooks.writeGuards?.get(req.target.name);
      let guarded: WriteGuardInput | undefined;
      const relation = ctx.registry.relations.get(req.target.name);
      // A DELETE of a guarded relation is its delete endpoint's (deleteRules.ts): refused, a plain
      // delete, or the soft delete run as a PATCH of deleted_at through the guard.
      let softDelete = false;
      if (guard && relation && method === 'DELETE' && req.target.kind === 'relation') {
        await hooks.authorize?.(c, [{ resource: relation.writeResource ?? relation.resource, action: 'write' }]);
        const rule = hooks.deleteRules?.get(req.target.name);
        const query = [...url.searchParams.entries()];
        const target = await checkDelete(req.target.name, rule, query, ctx.db);
        if (rule?.kind === 'soft') {
          const rollback = req.prefer.tx === 'rollback';
          const mark = [{ deleted_at: new Date().toISOString() }];
          const rows = await guard({ method: 'PATCH', rows: mark, query, db: ctx.db, rollback });
          if (!rollback && rule.remove) for (const id of target.live) await rule.remove(id);
          req.method = 'PATCH';
          req.body = JSON.stringify(rows[0] ?? mark[0]);
          softDelete = true;
        }
      }
      if (
        guard &&
        relation &&
        req.body &&
        req.target.kind === 'relation' &&
        (method === 'POST' || method === 'PATCH' || method === 'PUT')
      ) {
        await hooks.authorize?.(c, [{ resource: relation.writeResource ?? relation.resource, action: 'write' }]);
        const parsed = bodyRows(req.body);
        if (parsed) {
          const query = [...url.searchParams.entries()];
          const rollback = req.prefer.tx === 'rollback';
          const rows = await guard({ method, rows: parsed.rows, query, db: ctx.db, rollback });
          req.body = JSON.stringify(parsed.array ? rows : rows[0]);
          guarded = { method, rows, query, db: ctx.db, rollback };
        }
      }
      // Secret columns are sealed before they reach the database (encryption at rest).
      const secretColumns = ctx.registry.relations.get(req.target.name)?.secretColumns;
      if (req.body && req.target.kind === 'relation' && secretColumns?.length)
        req.body = sealBody(req.body, secretColumns, ctx.secrets);
      const plan = makePlan(req, { schema: ctx.schema, registry: ctx.registry });
      await hooks.authorize?.(c, plan.access);
      const res = await execute(ctx, plan, method, req.prefer.tx === 'rollback', (tx) => hooks.beforeWrite?.(tx, c));
      if (plan.kind === 'insert' || plan.kind === 'update' || plan.kind === 'delete') hooks.afterWrite?.(plan.relation);
      // Answered as the DELETE it was (PostgREST's delete range: no offsets).
      const range = res.headers['content-range'];
      if (softDelete && range) res.headers['content-range'] = range.replace(/^[^/]*\//, '*/');
      const sync = hooks.writeSyncs?.get(req.target.name);
      if (sync && guarded && req.prefer.tx !== 'rollback') await sync(guarded);
      if (plan.kind === 'read' && ctx.registry.relations.get(req.target.name)?.noStore)
        res.headers['cache-control'] = 'no-store';
      return send(res);
    } catch (e) {
      return send(errorResponse(e, c));
    }
  });
  return app;
}

/** One per process: a name always stands for the same text on every pooled connection. */
const readNames = new StatementNames();

async function execute(
  ctx: AppContext,
  plan: Plan,
  method: string,
  rollback: boolean,
  beforeWrite: (tx: Queryable) => Promise<void> | undefined,
): Promise<ApiResponse> {
  const statement = buildSql(plan);
  if (plan.kind === 'read') {
    const { rows } = await ctx.db.query<ResultRow>(statement.text, statement.values, {
      prepare: readNames.nameFor(statement.text),
    });
    return respond(plan, rows[0]!, method);
  }
  // Writes and functions run in a transaction so a refused result leaves nothing behind.
  let response: ApiResponse | undefined;
  const rollbackMarker = new Error('rollback requested');
  try {
    await ctx.db.transaction(async (tx) => {
      if (plan.kind === 'rpc' && plan.readOnly) await tx.query('SET TRANSACTION READ ONLY');
      else await beforeWrite(tx);
      const { rows } = await tx.query<ResultRow>(statement.text, statement.values);
      response = respond(plan, rows[0]!, method);
      if (rollback) throw rollbackMarker;
    });
  } catch (e) {
    if (e !== rollbackMarker) throw e;
  }
  return response!;
}

function errorResponse(e: unknown, c: Context): ApiResponse {
  let err: ApiError;
  if (e instanceof ApiError) err = e;
  else if (isPgError(e)) err = fromPgError(e);
  else {
    console.error(`/api/db ${c.req.method} ${c.req.path} failed:`, e);
    err = new ApiError(500, 'OPSDECK500', 'Internal server error');
  }
  return {
    status: err.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...err.headers },
    body: JSON.stringify(err.body()),
  };
}

function send(res: ApiResponse): Response {
  return new Response(res.body, { status: res.status, headers: res.headers });
}
