// The tcp checker against a real loopback listener and a port nothing listens on.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostPort, tcpChecker, tcpSchema, type TcpSpec } from '../../src/health/checkers/tcp.js';
import { testCheckContext } from '../helpers/checkContext.js';

let server: net.Server;
let port: number;
let accepted = 0;

beforeAll(async () => {
  server = net.createServer((socket) => {
    accepted++;
    socket.on('error', () => {});
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

/** A port that was free a moment ago: bound, then closed. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const p = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return p;
}

const run = (fields: Partial<TcpSpec>, ctx = testCheckContext()) =>
  tcpChecker.run(tcpSchema.parse({ name: 'tcp-test', ...fields }), ctx);

describe('tcp', () => {
  it('passes when the port accepts a connection', async () => {
    const before = accepted;
    const r = await run({ endpoint: `127.0.0.1:${port}`, thresholdMillis: 5000 });
    expect(r.error).toBeUndefined();
    expect(r.pass).toBe(true);
    expect(r.data).toMatchObject({ host: '127.0.0.1', port, address: '127.0.0.1' });
    expect(r.message).toMatch(/^connected to 127\.0\.0\.1:\d+ in \d+ ms$/);
    await new Promise((r2) => setTimeout(r2, 20));
    expect(accepted).toBe(before + 1);
  });

  it('accepts host and port as separate fields and a tcp:// prefix', async () => {
    expect((await run({ host: '127.0.0.1', port })).pass).toBe(true);
    expect((await run({ endpoint: `tcp://localhost:${port}` })).pass).toBe(true);
  });

  it('fails with "connection refused" on a closed port', async () => {
    const p = await closedPort();
    const r = await run({ endpoint: `127.0.0.1:${p}` });
    expect(r.pass).toBe(false);
    expect(r.error).toBe(`connection refused: 127.0.0.1:${p}`);
  });

  it('fails on a host that does not resolve', async () => {
    const r = await run({ endpoint: 'no-such-host.invalid:80' });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/no-such-host\.invalid/);
  });

  it('is invalid without a port', async () => {
    const r = await run({ endpoint: 'example.com' });
    expect(r.invalid).toBe(true);
    expect(r.error).toBe('"example.com" is not host:port (for example db.internal:5432)');
    expect(tcpSchema.safeParse({ name: 'x' }).error?.issues[0]?.message).toBe('endpoint is required (host:port)');
  });

  it('stops at once when the context is already aborted', async () => {
    const ctx = { ...testCheckContext(), signal: AbortSignal.abort(new Error('timed out after 1 ms')) };
    const r = await run({ endpoint: `127.0.0.1:${port}` }, ctx);
    expect(r.pass).toBe(false);
    expect(r.error).toBe(`timed out after 1 ms connecting to 127.0.0.1:${port}`);
  });

  it('splits host:port forms', () => {
    expect(parseHostPort('db:5432')).toEqual({ host: 'db', port: 5432 });
    expect(parseHostPort('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseHostPort('::1', 22)).toEqual({ host: '::1', port: 22 });
    expect(parseHostPort('db:99999')).toBeUndefined();
  });
});
