// A loopback HTTP server that records every request it gets and answers what the test tells it to,
// for tests that check what a client really sent (notification channels, webhooks).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, undefined when it is not JSON. */
  json: unknown;
}

export interface Reply {
  status?: number;
  body?: string | object;
  headers?: Record<string, string>;
  /** Never answer (for timeouts). */
  hang?: boolean;
}

export interface HttpReceiver {
  /** http://127.0.0.1:port */
  url: string;
  requests: ReceivedRequest[];
  /** The latest request; throws when none came. */
  last(): ReceivedRequest;
  /** How the following requests are answered (default 200 with an empty JSON object). */
  reply(reply: Reply | ((req: ReceivedRequest) => Reply)): void;
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  let answer: (req: ReceivedRequest) => Reply = () => ({ status: 200, body: {} });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const url = new URL(req.url ?? '/', 'http://receiver');
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        json,
      };
      requests.push(received);
      const r = answer(received);
      if (r.hang) return;
      const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? {});
      res.writeHead(r.status ?? 200, {
        'content-type': typeof r.body === 'string' ? 'text/plain' : 'application/json',
        ...r.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    last() {
      const r = requests[requests.length - 1];
      if (!r) throw new Error('the receiver got no request');
      return r;
    },
    reply(reply) {
      answer = typeof reply === 'function' ? reply : () => reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
