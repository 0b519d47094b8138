// `sql`: runs `query` on PostgreSQL or MySQL/MariaDB (`driver`), reached through a stored
// `connection` or a `url` (with optional username/password), using the health checkers' drivers.
// Result: rows (values as the database's text) and count; a connection or query error fails it.
import { z } from 'zod';
import { envValueSchema } from '../../connections/envValue.js';
import { mysqlChecker } from '../../health/checkers/mysql.js';
import { postgresChecker } from '../../health/checkers/postgres.js';
import { checkContext, type PlaybookAction } from './action.js';

const schema = z
  .looseObject({
    driver: z.enum(['postgres', 'mysql'], { error: 'driver must be postgres or mysql' }),
    connection: z.string().optional(),
    url: z.string().optional(),
    username: envValueSchema.optional(),
    password: envValueSchema.optional(),
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
    const checker = spec.driver === 'postgres' ? postgresChecker : mysqlChecker;
    const { driver: _driver, ...target } = spec;
    const r = await checker.run({ ...target, name: 'playbook-sql' }, checkContext(ctx));
    const results = (r.data.results as Record<string, unknown> | undefined) ?? { rows: [], count: 0 };
    return { result: results, error: r.pass ? undefined : (r.error ?? 'the query failed') };
  },
};
