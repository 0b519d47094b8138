// What the HTTP log backends (Loki, OpenSearch) share: the entry's URL and credentials resolved
// through its connection (basic auth with a username, bearer with a password alone, the
// connection's properties), and a JSON request whose failures name the status and the answer.
import { describeError, resolveTarget, type EnvValue, type Target } from '../../connections/index.js';
import { LogBackendError, LogRequestError, type EntryProblem, type SearchContext } from './types.js';

export interface RemoteEntry {
  url?: string;
  connection?: string;
  username?: unknown;
  password?: unknown;
}

export interface Remote {
  /** Without a trailing slash. */
  base: string;
  headers: Record<string, string>;
  target: Target;
}

export async function remoteOf(entry: RemoteEntry, ctx: SearchContext): Promise<Remote> {
  let target: Target;
  try {
    target = await resolveTarget(
      {
        connection: entry.connection,
        url: entry.url,
        username: entry.username as EnvValue | undefined,
        password: entry.password as EnvValue | undefined,
      },
      ctx,
    );
  } catch (e) {
    throw new LogRequestError((e as Error).message);
  }
  if (!target.url) throw new LogRequestError('the backend has no url (give url or a connection with one)');
  const url = new URL(target.url);
  const headers: Record<string, string> = { accept: 'application/json' };
  const username = target.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const password = target.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
  if (username) headers.authorization = `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}`;
  else if (password) headers.authorization = `Bearer ${password}`;
  url.username = '';
  url.password = '';
  return { base: url.toString().replace(/\/+$/, ''), headers, target };
}

/** Spec checks of a remote entry: a URL or a connection, a URL that parses, a connection that exists. */
export async function remoteProblems(
  entry: RemoteEntry,
  connection: (ref: string) => Promise<unknown>,
): Promise<EntryProblem[]> {
  const out: EntryProblem[] = [];
  if (!entry.url && !entry.connection) out.push({ path: ['url'], message: 'give url or connection' });
  if (entry.url) {
    try {
      const u = new URL(entry.url.replaceAll('$(username)', 'u').replaceAll('$(password)', 'p'));
      if (u.protocol !== 'http:' && u.protocol !== 'https:') out.push({ path: ['url'], message: 'use an http(s) URL' });
    } catch {
      out.push({ path: ['url'], message: `"${entry.url}" is not a URL` });
    }
  }
  if (entry.connection && !(await connection(entry.connection)))
    out.push({ path: ['connection'], message: `no connection "${entry.connection}"` });
  return out;
}

/** Sends a request and reads its JSON; a non-2xx answer or a network failure is a LogBackendError. */
export async function requestJson<T>(url: string, init: RequestInit, ctx: SearchContext): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: ctx.signal });
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    throw new LogBackendError(describeError(e, new URL(url).host));
  }
  const text = await res.text();
  if (!res.ok) throw new LogBackendError(`HTTP ${res.status} ${text.slice(0, 300).trim()}`.trim());
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new LogBackendError(`the answer is not JSON: ${text.slice(0, 120)}`);
  }
}
