// The `mysql` check (canary-checker): connects with `mysql2` (MySQL or MariaDB), runs `query` (default
// SELECT 1) and fails when `results` is set and fewer rows come back (canary-checker's rule). The url is a mysql:// URL or
// the Go driver DSN canary-checker files use (`user:pass@tcp(host:3306)/db?tls=skip-verify`).
// Data: `results` {rows, count}, every value as text (as canary-checker), NULL as null.
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
export type MysqlSpec = z.infer<typeof schema>;

async function run(spec: MysqlSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = connectionEndpoint(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const target = await resolveTarget(spec, ctx);
      if (!target.url) return invalid('mysql check needs a url or a connection');
      where = sqlEndpoint('mysql', target) || where;
      const query = spec.query?.trim() ? spec.query : 'SELECT 1';
      let rows: SqlRow[];
      try {
        rows = await runSqlQuery('mysql', target, query, { timeoutMs: ctx.timeoutMs, signal: ctx.signal, where });
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

export const mysqlChecker: Checker<MysqlSpec> = {
  type: 'mysql',
  schema,
  endpoint: (spec) => connectionEndpoint(spec) || spec.name,
  run,
};

export default mysqlChecker;
