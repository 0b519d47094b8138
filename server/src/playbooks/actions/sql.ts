// `sql`: runs `query` on PostgreSQL or MySQL/MariaDB (`driver`), reached through a stored
// `connection` or a `url` (with optional username/password), with the same clients as the postgres
// and mysql checks (connections/sql.ts). Result: rows (values as the database's text) and count; a
// connection or query error fails it.
import { z } from 'zod';
import { describeError, SpecError } from '../../connections/errors.js';
import { connectionEndpoint, connectionFields, resolveTarget } from '../../connections/resolve.js';
import { runSqlQuery, sqlEndpoint, SqlError } from '../../connections/sql.js';
import { abortText, connectionContext, type PlaybookAction } from './action.js';

const schema = z
  .looseObject({
    driver: z.enum(['postgres', 'mysql'], { error: 'driver must be postgres or mysql' }),
    ...connectionFields,
    query: z.string({ error: 'query is required' }).min(1, 'query is required'),
  })
  .superRefine((s, issue) => {
    if (!s.url && !s.connection)
      issue.addIssue({ code: 'custom', path: ['connection'], message: 'a connection or a url is required' });
  });
export type SqlActionSpec = z.infer<typeof schema>;

export const sqlAction: PlaybookAction<SqlActionSpec> = {
  type: 'sql',
  schema,
  async run(spec, ctx) {
    const empty = { rows: [], count: 0 };
    let where = connectionEndpoint(spec);
    try {
      const target = await resolveTarget(spec, connectionContext(ctx));
      if (!target.url) return { result: empty, error: `connection ${spec.connection} has no url` };
      where = sqlEndpoint(spec.driver, target) || where;
      const rows = await runSqlQuery(spec.driver, target, spec.query, {
        timeoutMs: ctx.timeoutMs,
        signal: ctx.signal,
        where,
      });
      return { result: { rows, count: rows.length } };
    } catch (e) {
      if (e instanceof SqlError || e instanceof SpecError) return { result: empty, error: e.message };
      if (ctx.signal.aborted)
        return { result: empty, error: `${abortText(ctx)}${where ? ` waiting for ${where}` : ''}` };
      return { result: empty, error: describeError(e, where || undefined) };
    }
  },
};
