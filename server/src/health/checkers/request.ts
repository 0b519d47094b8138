// A small JSON-over-HTTP client for the API-based checkers (prometheus, alertmanager, elasticsearch):
// credentials in the URL or as username/password become Basic auth, TLS verification can be skipped,
// and the check's AbortSignal bounds the whole exchange.
import http from 'node:http';
import https from 'node:https';
import { SpecError } from '../../connections/errors.js';

export interface JsonRequest {
  method?: 'GET' | 'POST';
  /** Base URL of the service (may carry `user:pass@`), and a path (with query) relative to it. */
  baseUrl: string;
  path: string;
  username?: string;
  password?: string;
  body?: string;
  insecureTls?: boolean;
  signal: AbortSignal;
  /** Cap on the response body, in bytes. */
  maxBytes?: number;
}

export interface JsonResponse {
  status: number;
  /** The parsed body, or undefined when it was not JSON. */
  json: unknown;
  text: string;
  /** The URL requested, without credentials. */
  url: string;
}

/** Joins a service base URL (maybe with a path prefix) and an API path; throws SpecError for a bad URL. */
export function apiUrl(baseUrl: string, path: string): URL {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new SpecError(`url ${JSON.stringify(baseUrl)} is not a valid URL (expected e.g. http://host:9090)`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new SpecError(`url ${baseUrl} must be http:// or https://`);
  const [p, q] = path.split('?', 2) as [string, string | undefined];
  base.pathname = `${base.pathname.replace(/\/+$/, '')}/${p.replace(/^\/+/, '')}`;
  base.search = q ? `?${q}` : '';
  return base;
}

export async function requestJson(req: JsonRequest): Promise<JsonResponse> {
  const url = apiUrl(req.baseUrl, req.path);
  const username = req.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const password = req.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
  url.username = '';
  url.password = '';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (username || password)
    headers.authorization = `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64')}`;
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  const maxBytes = req.maxBytes ?? 16 * 1024 * 1024;
  const lib = url.protocol === 'https:' ? https : http;

  return new Promise<JsonResponse>((resolve, reject) => {
    const r = lib.request(
      url,
      {
        method: req.method ?? 'GET',
        headers,
        signal: req.signal,
        ...(url.protocol === 'https:' ? { rejectUnauthorized: !req.insecureTls } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) {
            res.destroy(new Error(`response from ${url.origin} is larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json, text, url: url.toString() });
        });
      },
    );
    r.on('error', reject);
    r.end(req.body);
  });
}

/** The first line of a non-JSON body, for error messages. */
export function bodySnippet(text: string, max = 200): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
