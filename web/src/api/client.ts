// The one HTTP client of the console: JSON in and out, same-origin session cookie, a timeout,
// one set of network-error messages (spec/3 §8), and the 401 → /login?return_to=<path> redirect.
// Every call to /api goes through here (react-query functions, mutations, the PostgREST builder).

export const TIMEOUT_MESSAGE = 'Request timed out. Please try again.';
export const NETWORK_ERROR_MESSAGE = 'Network Error. Please try again.';
export const OFFLINE_MESSAGE = 'No internet connection. Please try again.';
export const GENERIC_ERROR_MESSAGE = 'An error occurred';

const DEFAULT_TIMEOUT_MS = 30_000;

/** An error answer from the server, or a transport failure (status 0). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    /** The form field a validation error is about (`{error, field}` answers). */
    readonly field?: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Appended to the path; undefined values are left out. */
  query?: URLSearchParams | Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is (YAML documents); the caller sets its Content-Type. */
  rawBody?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * 'redirect' (default): a 401 sends the browser to sign in. 'throw': the caller handles it
   * (sign-in forms, where a 401 means a wrong password).
   */
  on401?: 'redirect' | 'throw';
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** Paths that are themselves the sign-in flow: a 401 there must not redirect to sign-in again. */
const IDENTITY_PAGES = ['/login', '/registration', '/recovery', '/verification', '/error', '/bad-session'];

export function isIdentityPage(pathname: string): boolean {
  return IDENTITY_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/** Where a lost session sends the browser: /login?return_to=<current path>. */
export function signInUrl(location: { pathname: string; search: string; hash?: string }): string {
  const returnTo = `${location.pathname}${location.search}${location.hash ?? ''}`;
  if (isIdentityPage(location.pathname) || returnTo === '/') return '/login';
  return `/login?return_to=${encodeURIComponent(returnTo)}`;
}

type UnauthorizedHandler = (to: string) => void;
let onUnauthorized: UnauthorizedHandler = (to) => window.location.assign(to);
let redirecting = false;

/** The app replaces the full-page redirect with a router navigation. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

function handleUnauthorized(): void {
  if (redirecting || isIdentityPage(window.location.pathname)) return;
  redirecting = true;
  onUnauthorized(signInUrl(window.location));
  // Several parallel requests fail together; redirect once.
  setTimeout(() => (redirecting = false), 1000);
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  let params: URLSearchParams;
  if (query instanceof URLSearchParams) params = query;
  else {
    params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, v === null ? 'null' : String(v));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/** The text to show for an error answer: the server's error or message field, else a fallback. */
export function serverMessage(body: unknown, fallback = GENERIC_ERROR_MESSAGE): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const key of ['error', 'message']) {
      const v = b[key];
      if (typeof v === 'string' && v.trim()) return v;
    }
  }
  if (typeof body === 'string' && body.trim() && body.length < 300) return body.trim();
  return fallback;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const abortFromCaller = () => controller.abort();
  options.signal?.addEventListener('abort', abortFromCaller, { once: true });

  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
  } else if (options.body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    body = JSON.stringify(options.body);
  }

  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: controller.signal,
    });
  } catch (e) {
    if (options.signal?.aborted) throw e; // superseded by the caller (react-query cancels): not an error to show
    if (timedOut) throw new ApiError(TIMEOUT_MESSAGE, 0, 'TIMEOUT');
    if (typeof navigator !== 'undefined' && navigator.onLine === false)
      throw new ApiError(OFFLINE_MESSAGE, 0, 'OFFLINE');
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0, 'NETWORK');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abortFromCaller);
  }

  const data = await readBody(res);
  // 304: the caller sent If-None-Match and holds the answer (e.g. the health summary's polls).
  if (!res.ok && res.status !== 304) {
    if (res.status === 401 && (options.on401 ?? 'redirect') === 'redirect') handleUnauthorized();
    const b = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
    throw new ApiError(
      serverMessage(data, res.statusText || GENERIC_ERROR_MESSAGE),
      res.status,
      typeof b.code === 'string' ? b.code : undefined,
      typeof b.field === 'string' ? b.field : undefined,
      data,
    );
  }
  return { data: data as T, status: res.status, headers: res.headers };
}

async function dataOf<T>(p: Promise<ApiResponse<T>>): Promise<T> {
  return (await p).data;
}

type Opts = Omit<RequestOptions, 'method' | 'body' | 'rawBody'>;

export const api = {
  get: <T>(path: string, options?: Opts) => dataOf<T>(request<T>(path, { ...options, method: 'GET' })),
  post: <T>(path: string, body?: unknown, options?: Opts) =>
    dataOf<T>(request<T>(path, { ...options, method: 'POST', body: body ?? {} })),
  patch: <T>(path: string, body: unknown, options?: Opts) =>
    dataOf<T>(request<T>(path, { ...options, method: 'PATCH', body })),
  put: <T>(path: string, body: unknown, options?: Opts) =>
    dataOf<T>(request<T>(path, { ...options, method: 'PUT', body })),
  delete: <T = void>(path: string, options?: Opts) => dataOf<T>(request<T>(path, { ...options, method: 'DELETE' })),
};

/** The message to show for any thrown value (toasts, inline form errors). */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return GENERIC_ERROR_MESSAGE;
}
