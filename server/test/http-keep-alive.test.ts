// Idle keep-alive connections stay open longer than a proxy's idle timeout (HTTP_KEEP_ALIVE_TIMEOUT_MS,
// 65 s by default). With Node's own 5 s, a client that sends on a connection the server is closing
// at that moment gets ECONNRESET instead of an answer (seen from the e2e suite's API requests).
// While shutting down, answers close their connection so the listener closes promptly.
// Raw sockets: what is measured is the server's behaviour, not a client agent's pooling rules.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { openTestDatabase, type TestDatabase } from './helpers/databases.js';

/** One keep-alive connection: send a GET, read its answer's head; `closed` resolves when the server ends it. */
async function connect(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (buffer += d));
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  return {
    closed,
    /** The status line and headers of the answer (lower-cased names). */
    async get(path: string): Promise<{ status: number; headers: Record<string, string> }> {
      buffer = '';
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end >= 0) {
          const [statusLine, ...lines] = buffer.slice(0, end).split('\r\n');
          const headers = Object.fromEntries(
            lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
          );
          const length = Number(headers['content-length']);
          if (buffer.length >= end + 4 + length) return { status: Number(statusLine!.split(' ')[1]), headers };
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    destroy: () => socket.destroy(),
  };
}

describe('HTTP keep-alive', () => {
  let test: TestDatabase;
  let app: Opsdeck;
  let short: Opsdeck;

  beforeAll(async () => {
    test = await openTestDatabase('pglite');
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    short = await startOpsdeck({
      database: test.db,
      port: 0,
      host: '127.0.0.1',
      engines: false,
      keepAliveTimeoutMs: 1_000,
    });
  });

  afterAll(async () => {
    await short?.close();
    await app?.close();
    await test?.close();
  });

  it('keeps an idle connection open past Node’s 5 s default, and says for how long', async () => {
    const c = await connect(app.url);
    try {
      const first = await c.get('/healthz');
      expect(first.status).toBe(200);
      expect(first.headers['keep-alive']).toBe('timeout=65');
      const closedEarly = await Promise.race([c.closed.then(() => true), sleep(6_000).then(() => false)]);
      expect(closedEarly).toBe(false);
      // The same connection still answers.
      expect((await c.get('/healthz')).status).toBe(200);
    } finally {
      c.destroy();
    }
  }, 20_000);

  it('closes an idle connection after HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const c = await connect(short.url);
    try {
      expect((await c.get('/healthz')).status).toBe(200);
      const answered = Date.now();
      const closedAt = await Promise.race([c.closed, sleep(5_000).then(() => Infinity)]);
      expect(closedAt - answered).toBeGreaterThanOrEqual(900);
      expect(closedAt - answered).toBeLessThan(3_000);
    } finally {
      c.destroy();
    }
  }, 20_000);

  it('closes each connection after its answer once the server is shutting down', async () => {
    const c = await connect(app.url);
    try {
      expect((await c.get('/api/about')).headers.connection).toBe('keep-alive');
      app.ctx.lifecycle.draining = true;
      const last = await c.get('/api/about');
      expect(last).toMatchObject({ status: 200, headers: { connection: 'close' } });
      // The server ends the socket at once instead of keeping it for 65 s.
      const closedAt = await Promise.race([c.closed, sleep(2_000).then(() => Infinity)]);
      expect(closedAt).toBeLessThan(Infinity);
    } finally {
      app.ctx.lifecycle.draining = false;
      c.destroy();
    }
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
