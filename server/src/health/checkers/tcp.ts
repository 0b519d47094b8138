// The tcp check: opens a TCP connection to host:port (node:net), passes when it connects, within
// thresholdMillis when one is set, and closes it again.
import net from 'node:net';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { abortMessage, commonFields, describeNetworkError, fail, invalid } from './common.js';

export const tcpSchema = z
  .looseObject({
    ...commonFields,
    /** host:port, [ipv6]:port or tcp://host:port */
    endpoint: z.string().optional(),
    host: z.string().optional(),
    port: z.union([z.number().int(), z.string()]).optional(),
    thresholdMillis: z.number().nonnegative().optional(),
  })
  .superRefine((s, issue) => {
    if (!s.endpoint && !s.host)
      issue.addIssue({ code: 'custom', path: ['endpoint'], message: 'endpoint is required (host:port)' });
  });

export type TcpSpec = z.infer<typeof tcpSchema>;

/** Splits "host:port", "[::1]:port" or "tcp://host:port"; undefined when it has no usable port. */
export function parseHostPort(endpoint: string, port?: number | string): { host: string; port: number } | undefined {
  let text = endpoint.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  text = text.replace(/\/.*$/, '');
  let host = text;
  let portText = port === undefined ? undefined : String(port);
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (v6) {
    host = v6[1]!;
    portText = v6[2] ?? portText;
  } else if ((text.match(/:/g) ?? []).length === 1) {
    const i = text.lastIndexOf(':');
    host = text.slice(0, i);
    portText = text.slice(i + 1);
  }
  const n = Number(portText);
  if (!host || !portText || !/^\d+$/.test(portText) || n < 1 || n > 65_535) return undefined;
  return { host, port: n };
}

function display(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

async function run(spec: TcpSpec, ctx: CheckContext): Promise<CheckResult> {
  const given = spec.endpoint ?? spec.host ?? '';
  const addr = parseHostPort(given, spec.port);
  if (!addr) return invalid(`"${given}" is not host:port (for example db.internal:5432)`);
  const target = display(addr.host, addr.port);
  const data: Record<string, unknown> = { host: addr.host, port: addr.port };
  const signal = ctx.signal;
  const started = performance.now();
  try {
    const remote = await new Promise<string | undefined>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const socket = net.connect({ host: addr.host, port: addr.port });
      const onAbort = () => {
        socket.destroy();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      socket.once('connect', () => {
        signal.removeEventListener('abort', onAbort);
        const address = socket.remoteAddress;
        socket.destroy();
        resolve(address);
      });
      socket.once('error', (e) => {
        signal.removeEventListener('abort', onAbort);
        socket.destroy();
        reject(e);
      });
    });
    const elapsed = Math.round(performance.now() - started);
    Object.assign(data, { address: remote, elapsed });
    if (spec.thresholdMillis && elapsed > spec.thresholdMillis) {
      return fail(`connecting to ${target} took ${elapsed} ms, over the ${spec.thresholdMillis} ms threshold`, data, {
        durationMs: elapsed,
      });
    }
    return { pass: true, message: `connected to ${target} in ${elapsed} ms`, data, durationMs: elapsed };
  } catch (e) {
    const durationMs = Math.round(performance.now() - started);
    if (signal.aborted) return fail(`${abortMessage(signal, ctx)} connecting to ${target}`, data, { durationMs });
    return fail(describeNetworkError(e, target), data, { durationMs });
  }
}

export const tcpChecker: Checker<TcpSpec> = {
  type: 'tcp',
  schema: tcpSchema,
  endpoint: (spec) =>
    spec.endpoint ?? (spec.host ? `${spec.host}${spec.port !== undefined ? `:${spec.port}` : ''}` : ''),
  run,
};

export default tcpChecker;
