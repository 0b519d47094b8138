// The `postgres` check (canary-checker): connects with `pg`, runs `query` (default SELECT 1) and fails
// when `results` is set and fewer rows come back (canary-checker's rule). Data: `results` {rows, count}; values are the text
// PostgreSQL sends (as canary-checker scans every column into a string), NULL stays null.
import { z } from 'zod';
import { connectionEndpoint, connectionFields, resolveTarget } from '../../connections/resolve.js';
import { runSqlQuery, sqlEndpoint, SqlError, type SqlRow } from '../../connections/sql.js';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { commonFields, fail, guarded, invalid, plural } from './common.js';

const schema = z.looseObject({
  ...commonFields,
  ...connectionFields,
  query: z.string().optional(),
  results: z.number().int().nonnegative().optional(),
});
export type PostgresSpec = z.infer<typeof schema>;

async function run(spec: PostgresSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = connectionEndpoint(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const target = await resolveTarget(spec, ctx);
      if (!target.url) return invalid('postgres check needs a url or a connection');
      where = sqlEndpoint('postgres', target) || where;
      const query = spec.query?.trim() ? spec.query : 'SELECT 1';
      let rows: SqlRow[];
      try {
        rows = await runSqlQuery('postgres', target, query, { timeoutMs: ctx.timeoutMs, signal: ctx.signal, where });
      } catch (e) {
        if (e instanceof SqlError) return fail(e.message);
        throw e;
      }
      // canary-checker's SQL detail, bound as `results` by the runner.
      const results = { rows, count: rows.length };
      if (spec.markFailOnEmpty && rows.length === 0)
        return fail('query returned no rows (markFailOnEmpty)', {}, { results });
      if (spec.results !== undefined && rows.length < spec.results) {
        return fail(`expected at least ${plural(spec.results, 'row')}, got ${rows.length}`, {}, { results });
      }
      return { pass: true, message: `query returned ${plural(rows.length, 'row')}`, data: {}, results };
    },
  );
}

export const postgresChecker: Checker<PostgresSpec> = {
  type: 'postgres',
  schema,
  endpoint: (spec) => connectionEndpoint(spec) || spec.name,
  run,
};

export default postgresChecker;
