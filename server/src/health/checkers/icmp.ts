// The icmp check: runs the system ping binary (Debian iputils-ping) against endpoint, parses packet
// loss and round-trip times, and judges them against packetLossThreshold and thresholdMillis.
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { abortMessage, commonFields, fail, invalid } from './common.js';
import { tail } from '../../connections/text.js';
import { baseEnv, findOnPath, runProcess } from '../../connections/process.js';

export const PING_MISSING = 'the ping binary is not installed (Debian: apt-get install iputils-ping)';
const DEFAULT_PACKET_COUNT = 3;

export const icmpSchema = z.looseObject({
  ...commonFields,
  endpoint: z
    .string({ error: 'endpoint is required (a host name or IP address)' })
    .min(1, 'endpoint is required (a host name or IP address)'),
  thresholdMillis: z.number().nonnegative().optional(),
  /** Percent of packets that may be lost. */
  packetLossThreshold: z.number().min(0).max(100).optional(),
  packetCount: z.number().int().min(1).max(100).optional(),
});

export type IcmpSpec = z.infer<typeof icmpSchema>;

export interface PingStats {
  ip?: string;
  sent: number;
  received: number;
  packetLoss: number;
  rtt?: { min: number; avg: number; max: number; mdev?: number };
}

/** Parses iputils (and busybox) ping output; undefined when there is no statistics line. */
export function parsePingOutput(output: string): PingStats | undefined {
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(output);
  if (!counts) return undefined;
  const sent = Number(counts[1]);
  const received = Number(counts[2]);
  const loss = /([\d.]+)% packet loss/.exec(output)?.[1];
  const packetLoss = loss !== undefined ? Number(loss) : sent ? ((sent - received) / sent) * 100 : 100;
  const rttMatch =
    /(?:rtt|round-trip) min\/avg\/max(?:\/(?:mdev|stddev))? = ([\d.]+)\/([\d.]+)\/([\d.]+)(?:\/([\d.]+))? ms/.exec(
      output,
    );
  const ip = /^PING \S+ \(([^)]+)\)/m.exec(output)?.[1];
  return {
    ip,
    sent,
    received,
    packetLoss,
    rtt: rttMatch
      ? {
          min: Number(rttMatch[1]),
          avg: Number(rttMatch[2]),
          max: Number(rttMatch[3]),
          ...(rttMatch[4] !== undefined ? { mdev: Number(rttMatch[4]) } : {}),
        }
      : undefined,
  };
}

export interface IcmpOptions {
  /** The PATH searched for ping; read at each run (default: the server's PATH). */
  pathEnv?: () => string | undefined;
}

export function createIcmpChecker(options: IcmpOptions = {}): Checker<IcmpSpec> {
  const pathEnv = options.pathEnv ?? (() => process.env.PATH);

  async function run(spec: IcmpSpec, ctx: CheckContext): Promise<CheckResult> {
    const host = spec.endpoint.trim();
    // Passed as an argument, never through a shell; a leading "-" would still read as an option.
    if (!host || host.startsWith('-') || /\s/.test(host))
      return invalid(`"${spec.endpoint}" is not a host name or IP address`);
    const searchPath = pathEnv();
    const ping = await findOnPath('ping', searchPath);
    if (!ping) return fail(PING_MISSING, { endpoint: host });
    const count = spec.packetCount ?? DEFAULT_PACKET_COUNT;
    // Wait for the last reply at most 2 s (less when the check's own time is short).
    const waitS = Math.max(1, Math.min(2, Math.floor(ctx.timeoutMs / 1000 / 2)));
    const started = performance.now();
    const r = await runProcess(ping, ['-n', '-c', String(count), '-i', '0.2', '-W', String(waitS), host], {
      env: baseEnv({ PATH: searchPath, LC_ALL: 'C', LANG: 'C' }),
      signal: ctx.signal,
      killGraceMs: 200,
    });
    const durationMs = Math.round(performance.now() - started);
    const data: Record<string, unknown> = { endpoint: host };
    if (r.spawnError) {
      if (r.spawnError.code === 'ENOENT') return fail(PING_MISSING, data);
      return fail(`could not run ${ping}: ${r.spawnError.message}`, data);
    }
    if (r.aborted) return fail(`${abortMessage(ctx.signal, ctx)} pinging ${host}`, data, { durationMs });
    const stats = parsePingOutput(r.stdout);
    const stderr = r.stderr.trim();
    if (!stats) {
      if (
        /not known|unknown host|cannot resolve|No address associated|Temporary failure in name resolution/i.test(stderr)
      ) {
        return fail(`host not found: ${host}`, data, { durationMs });
      }
      if (/Operation not permitted|permission denied|socket:/i.test(stderr)) {
        return fail(
          `ping may not open an ICMP socket here (${tail(stderr, 200)}): give it the capability (setcap cap_net_raw+ep ${ping}) or allow ping sockets (sysctl net.ipv4.ping_group_range="0 2147483647")`,
          data,
          { durationMs },
        );
      }
      return fail(
        `ping ${host} failed (exit code ${r.exitCode ?? r.signal}): ${tail(stderr || r.stdout, 300) || 'no output'}`,
        data,
        { durationMs },
      );
    }
    const avg = stats.rtt?.avg;
    Object.assign(data, {
      ip: stats.ip ?? null,
      sent: stats.sent,
      received: stats.received,
      packetLoss: stats.packetLoss,
      rtt: stats.rtt ?? null,
      latency: avg ?? null,
    });
    const metrics = [
      { name: 'packet_loss', type: 'gauge' as const, value: stats.packetLoss, labels: { endpoint: host } },
      ...(avg !== undefined
        ? [{ name: 'latency', type: 'gauge' as const, value: avg, labels: { endpoint: host } }]
        : []),
    ];
    const latencyMs = avg !== undefined ? Math.max(1, Math.round(avg)) : durationMs;
    const result = (error?: string): CheckResult =>
      error
        ? { pass: false, error, data, durationMs: latencyMs, metrics }
        : {
            pass: true,
            message: `${stats.received}/${stats.sent} replies from ${host}${stats.ip && stats.ip !== host ? ` (${stats.ip})` : ''}, avg ${avg} ms`,
            data,
            durationMs: latencyMs,
            metrics,
          };
    if (stats.received === 0) return result(`no reply from ${host}: all ${stats.sent} packets lost`);
    const allowedLoss = spec.packetLossThreshold ?? 0;
    if (stats.packetLoss > allowedLoss) {
      return result(
        `packet loss ${stats.packetLoss}% (${stats.sent - stats.received} of ${stats.sent} lost), over the ${allowedLoss}% threshold`,
      );
    }
    if (spec.thresholdMillis && avg !== undefined && avg > spec.thresholdMillis) {
      return result(`average round trip ${avg} ms, over the ${spec.thresholdMillis} ms threshold`);
    }
    return result();
  }

  return { type: 'icmp', schema: icmpSchema, endpoint: (spec) => spec.endpoint, run };
}

export const icmpChecker = createIcmpChecker();

export default icmpChecker;
