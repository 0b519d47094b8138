// A loopback HTTP server for the canary-checker compatibility suite: JSON with a charset suffix,
// redirects, custom headers, chosen status codes and an RFC 7616 / 2617 digest challenge (MD5, qop=auth)
// that really checks the client's response.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CompatServer {
  url: string;
  close(): Promise<void>;
}

export const DIGEST_USER = 'alice';
export const DIGEST_PASSWORD = 's3cret pass';
const REALM = 'compat@opsdeck';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** The fields of a `Digest k=v, k="v"` header. */
function digestFields(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.replace(/^Digest\s+/i, '').matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g))
    out[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? '';
  return out;
}

export async function startCompatServer(): Promise<CompatServer> {
  const nonces = new Set<string>();
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown, contentType = 'application/json; charset=utf-8') => {
      res.writeHead(status, { 'Content-Type': contentType });
      res.end(JSON.stringify(body));
    };
    switch (u.pathname) {
      case '/json':
        return json(200, { status: 'ok', items: [1, 2, 3], nested: { name: 'opsdeck' } });
      case '/json-upper':
        return json(200, { status: 'ok' }, 'application/json;charset=UTF-8');
      case '/problem':
        return json(200, { status: 'ok' }, 'application/problem+json; charset=utf-8');
      case '/text':
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Custom-Header': 'hello' });
        return res.end('plain text body');
      case '/redirect':
        res.writeHead(302, { Location: '/json' });
        return res.end();
      case '/redirect-twice':
        res.writeHead(301, { Location: '/redirect' });
        return res.end();
      case '/status': {
        const code = Number(u.searchParams.get('code') ?? '200');
        res.writeHead(code, { 'Content-Type': 'text/plain' });
        return res.end(`status ${code}`);
      }
      case '/digest': {
        const auth = req.headers.authorization ?? '';
        const f = digestFields(auth);
        if (/^Digest /i.test(auth) && f.nonce && nonces.has(f.nonce) && f.username === DIGEST_USER) {
          const ha1 = md5(`${DIGEST_USER}:${REALM}:${DIGEST_PASSWORD}`);
          const ha2 = md5(`${req.method}:${f.uri}`);
          const expected =
            f.qop === 'auth'
              ? md5(`${ha1}:${f.nonce}:${f.nc}:${f.cnonce}:auth:${ha2}`)
              : md5(`${ha1}:${f.nonce}:${ha2}`);
          if (f.response === expected && f.uri === req.url) return json(200, { authenticated: true });
        }
        const nonce = randomBytes(16).toString('hex');
        nonces.add(nonce);
        res.writeHead(401, {
          'WWW-Authenticate': `Digest realm="${REALM}", qop="auth", algorithm=MD5, nonce="${nonce}", opaque="${md5(REALM)}"`,
        });
        return res.end('unauthorized');
      }
      default:
        res.writeHead(404);
        return res.end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
