// Test of SQL Server: log in and run `SELECT 1` with tedious. The URL is written as the Go driver does
// (`sqlserver://user:pass@host:1433/instance?database=master&encrypt=disable`) or as an ADO.NET string
// (`Server=host,1433;Database=master;User Id=sa;Password=...`).
import { Connection, Request } from 'tedious';
import { interpolateCredentials, type ResolvedConnection } from '../resolve.js';
import { connectFailure } from '../errors.js';
import { required, TestFailure, type ConnectionTester } from './tester.js';

interface MssqlTarget {
  server: string;
  port?: number;
  instance?: string;
  database?: string;
  user?: string;
  password?: string;
  encrypt: boolean;
}

function parseTarget(conn: ResolvedConnection): MssqlTarget {
  const raw = interpolateCredentials(required(conn.url, 'URL'), conn.username ?? '', conn.password ?? '').trim();
  if (/^(sqlserver|mssql):\/\//i.test(raw)) {
    const u = new URL(raw);
    const q = u.searchParams;
    return {
      server: u.hostname,
      port: u.port ? Number(u.port) : undefined,
      instance: u.pathname.replace(/^\//, '') || undefined,
      database: q.get('database') ?? undefined,
      user: u.username ? decodeURIComponent(u.username) : undefined,
      password: u.password ? decodeURIComponent(u.password) : undefined,
      encrypt: !['disable', 'false'].includes((q.get('encrypt') ?? '').toLowerCase()),
    };
  }
  const kv = new Map<string, string>();
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) kv.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const server = kv.get('server') ?? kv.get('data source');
  if (!server)
    throw new TestFailure('URL must be sqlserver://user:password@host:1433?database=db or "Server=host;Database=db"');
  const [hostPart, portPart] = server.replace(/^tcp:/i, '').split(',');
  const [host, instance] = (hostPart ?? '').split('\\');
  return {
    server: host ?? '',
    port: portPart ? Number(portPart) : undefined,
    instance,
    database: kv.get('database') ?? kv.get('initial catalog'),
    user: kv.get('user id') ?? kv.get('uid'),
    password: kv.get('password') ?? kv.get('pwd'),
    encrypt: !['false', 'no', 'disable'].includes((kv.get('encrypt') ?? '').toLowerCase()),
  };
}

export const sqlServerTester: ConnectionTester = {
  types: ['sql_server'],
  async test(conn, ctx) {
    const t = parseTarget(conn);
    const where = `${t.server}:${t.port ?? 1433}`;
    const connection = new Connection({
      server: t.server,
      authentication: {
        type: 'default',
        options: { userName: t.user ?? conn.username ?? undefined, password: t.password ?? conn.password ?? undefined },
      },
      options: {
        port: t.instance ? undefined : (t.port ?? 1433),
        instanceName: t.instance,
        database: t.database,
        encrypt: t.encrypt,
        trustServerCertificate: conn.insecureTls,
        connectTimeout: ctx.timeoutMs,
        requestTimeout: ctx.timeoutMs,
      },
    });
    connection.on('error', () => undefined);
    const onAbort = () => connection.close();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await new Promise<void>((resolve, reject) => {
        connection.connect((err) => (err ? reject(err) : resolve()));
      }).catch((e: unknown) => {
        if (ctx.signal.aborted) throw e;
        // tedious wraps socket errors (ConnectionError with the socket error as cause).
        const cause = (e as { cause?: unknown }).cause ?? e;
        throw new TestFailure(connectFailure(cause, where));
      });
      await new Promise<void>((resolve, reject) => {
        connection.execSql(new Request('SELECT 1', (err) => (err ? reject(err) : resolve())));
      }).catch((e: Error) => {
        if (ctx.signal.aborted) throw e;
        throw new TestFailure(`SELECT 1 failed on ${where}: ${e.message}`);
      });
      return { details: `SELECT 1 on ${where}${t.database ? `/${t.database}` : ''} answered` };
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      connection.close();
    }
  },
};
