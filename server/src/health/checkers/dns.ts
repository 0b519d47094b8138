// The dns check: one query of querytype for query against server:port (or the system resolver) with
// node:dns/promises, judged on minrecords, exactreply and thresholdMillis, as canary-checker does.
import dns from 'node:dns/promises';
import net from 'node:net';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { abortMessage, commonFields, deadline, errorText, fail, invalid } from './common.js';
import { durationSchema } from '../../connections/duration.js';
import { durationMs, formatDuration } from '../../connections/duration.js';

export const DNS_QUERY_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'PTR', 'SOA', 'CAA'] as const;
type QueryType = (typeof DNS_QUERY_TYPES)[number];
const DEFAULT_TIMEOUT_S = 10;

export const dnsSchema = z
  .looseObject({
    ...commonFields,
    server: z.string().optional(),
    port: z.number().int().min(1).max(65_535).optional(),
    query: z.string().optional(),
    querytype: z.string().optional(),
    minrecords: z.number().int().nonnegative().optional(),
    exactreply: z.array(z.string()).optional(),
    /** Seconds (canary-checker) or a duration text. */
    timeout: durationSchema.optional(),
    thresholdMillis: z.number().nonnegative().optional(),
  })
  .superRefine((s, issue) => {
    if (!s.query)
      issue.addIssue({ code: 'custom', path: ['query'], message: 'query is required (the name to look up)' });
    if (s.querytype && !(DNS_QUERY_TYPES as readonly string[]).includes(s.querytype.toUpperCase())) {
      issue.addIssue({
        code: 'custom',
        path: ['querytype'],
        message: `querytype must be one of ${DNS_QUERY_TYPES.join(', ')}`,
      });
    }
  });

export type DnsSpec = z.infer<typeof dnsSchema>;

/** Splits "1.1.1.1", "1.1.1.1:53", "[2606::1]:53" or "ns.example.com:5353". */
function splitServer(server: string): { host: string; port?: number } {
  const s = server.trim().replace(/^(udp|dns):\/\//i, '');
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (v6) return { host: v6[1]!, port: v6[2] ? Number(v6[2]) : undefined };
  if (net.isIPv6(s)) return { host: s };
  const m = /^(.*):(\d+)$/.exec(s);
  return m ? { host: m[1]!, port: Number(m[2]) } : { host: s };
}

function withPort(host: string, port: number): string {
  return net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}

type Answer = { records: string[]; raw: unknown };

async function query(resolver: dns.Resolver, type: QueryType, name: string): Promise<Answer> {
  switch (type) {
    case 'A': {
      const r = await resolver.resolve4(name);
      return { records: r, raw: r };
    }
    case 'AAAA': {
      const r = await resolver.resolve6(name);
      return { records: r, raw: r };
    }
    case 'CNAME': {
      const r = await resolver.resolveCname(name);
      return { records: r, raw: r };
    }
    case 'NS': {
      const r = await resolver.resolveNs(name);
      return { records: r, raw: r };
    }
    case 'PTR': {
      const r = net.isIP(name) ? await resolver.reverse(name) : await resolver.resolvePtr(name);
      return { records: r, raw: r };
    }
    case 'MX': {
      const r = await resolver.resolveMx(name);
      return { records: r.map((m) => `${m.exchange} ${m.priority}`), raw: r };
    }
    case 'TXT': {
      const r = await resolver.resolveTxt(name);
      return { records: r.map((chunks) => chunks.join('')), raw: r };
    }
    case 'SRV': {
      const r = await resolver.resolveSrv(name);
      return { records: r.map((s) => `${s.priority} ${s.weight} ${s.port} ${s.name}`), raw: r };
    }
    case 'SOA': {
      const s = await resolver.resolveSoa(name);
      return {
        records: [`${s.nsname} ${s.hostmaster} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minttl}`],
        raw: s,
      };
    }
    case 'CAA': {
      const r = await resolver.resolveCaa(name);
      return {
        records: r.map((c) => {
          const [tag, value] = Object.entries(c).find(([k]) => k !== 'critical') ?? ['', ''];
          return `${c.critical} ${tag} "${String(value)}"`;
        }),
        raw: r,
      };
    }
  }
}

/** Names compare without their trailing dot and, except in TXT records, without case. */
function normalise(record: string, type: QueryType): string {
  const s = record.trim().replace(/\.(?=\s|$)/g, '');
  return type === 'TXT' ? s : s.toLowerCase();
}

function describeDnsError(e: unknown, type: QueryType, name: string, server: string, timeoutMs: number): string {
  const code = (e as { code?: string })?.code ?? '';
  switch (code) {
    case 'ENOTFOUND':
      return `${name} does not exist (NXDOMAIN) according to ${server}`;
    case 'ENODATA':
      return `${name} has no ${type} records according to ${server}`;
    case 'ETIMEOUT':
      return `${server} did not answer the ${type} query for ${name} within ${formatDuration(timeoutMs)}`;
    case 'ESERVFAIL':
      return `${server} failed to answer the ${type} query for ${name} (SERVFAIL)`;
    case 'EREFUSED':
      return `${server} refused the ${type} query for ${name}`;
    case 'ECONNREFUSED':
      return `connection refused: ${server}`;
    case 'EBADRESP':
    case 'EFORMERR':
      return `${server} sent a malformed answer for ${name} (${code})`;
    default:
      return `${type} ${name} on ${server}: ${errorText(e)}`;
  }
}

async function run(spec: DnsSpec, ctx: CheckContext): Promise<CheckResult> {
  const type = (spec.querytype ?? 'A').toUpperCase() as QueryType;
  if (!DNS_QUERY_TYPES.includes(type)) return invalid(`querytype must be one of ${DNS_QUERY_TYPES.join(', ')}`);
  const name = spec.query ?? '';
  if (!name) return invalid('query is required (the name to look up)');
  const timeoutMs = Math.min(durationMs(spec.timeout ?? DEFAULT_TIMEOUT_S), ctx.timeoutMs);

  // c-ares retries with a growing timeout: two tries of a third each fit inside the budget.
  const resolver = new dns.Resolver({ timeout: Math.max(50, Math.floor(timeoutMs / 3)), tries: 2 });
  let serverLabel = 'the system resolver';
  if (spec.server) {
    const { host, port: inlinePort } = splitServer(spec.server);
    const port = spec.port ?? inlinePort ?? 53;
    let ip = host;
    if (!net.isIP(host)) {
      try {
        ip = (await dns.lookup(host)).address;
      } catch (e) {
        return fail(`could not resolve the DNS server name ${host}: ${errorText(e)}`);
      }
    }
    serverLabel = withPort(host, port);
    try {
      resolver.setServers([withPort(ip, port)]);
    } catch (e) {
      return invalid(`server "${spec.server}" is not usable: ${errorText(e)}`);
    }
  }

  const data: Record<string, unknown> = { query: name, querytype: type, server: spec.server ? serverLabel : null };
  const signal = deadline(ctx, timeoutMs);
  if (signal.aborted) return fail(`${abortMessage(signal, ctx)} before querying ${serverLabel}`, data);
  const onAbort = () => resolver.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  const started = performance.now();
  let answer: Answer;
  try {
    answer = await query(resolver, type, name);
  } catch (e) {
    const durationMs = Math.round(performance.now() - started);
    if (signal.aborted)
      return fail(`${abortMessage(signal, ctx)} waiting for ${serverLabel} to answer ${type} ${name}`, data, {
        durationMs,
      });
    return fail(describeDnsError(e, type, name, serverLabel, timeoutMs), data, { durationMs });
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  // Sub-millisecond answers count as 1 ms, as canary-checker rounds them.
  const elapsed = Math.max(1, Math.round(performance.now() - started));
  const records = answer.records;
  Object.assign(data, { records, count: records.length, answers: answer.raw, elapsed });
  const result = (error?: string): CheckResult =>
    error
      ? { pass: false, error, data, durationMs: elapsed }
      : {
          pass: true,
          message: `${type} ${name}: ${records.join(', ') || 'no records'} (${elapsed} ms)`,
          data,
          durationMs: elapsed,
        };

  if (spec.minrecords !== undefined && records.length < spec.minrecords) {
    return result(
      `${type} ${name} returned ${records.length} record${records.length === 1 ? '' : 's'}, expected at least ${spec.minrecords}`,
    );
  }
  if (spec.exactreply?.length) {
    const got = records.map((r) => normalise(r, type)).sort();
    const want = spec.exactreply.map((r) => normalise(r, type)).sort();
    if (got.length !== want.length || got.some((g, i) => g !== want[i])) {
      return result(
        `${type} ${name} returned [${records.join(', ')}], expected exactly [${spec.exactreply.join(', ')}]`,
      );
    }
  }
  if (spec.thresholdMillis && elapsed > spec.thresholdMillis) {
    return result(`${serverLabel} took ${elapsed} ms to answer, over the ${spec.thresholdMillis} ms threshold`);
  }
  return result();
}

export const dnsChecker: Checker<DnsSpec> = {
  type: 'dns',
  schema: dnsSchema,
  endpoint(spec) {
    let s = `${(spec.querytype ?? 'A').toUpperCase()}/${spec.query ?? ''}`;
    if (spec.server) s += `@${spec.server}${spec.port ? `:${spec.port}` : ''}`;
    return s;
  },
  run,
};

export default dnsChecker;
