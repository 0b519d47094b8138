// The dns checker against a real DNS server on a loopback UDP port (dnsServer.ts): record types,
// minrecords, exactreply, NXDOMAIN, no-data, slow and silent answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsChecker, dnsSchema, type DnsSpec } from '../../src/health/checkers/dns.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { startDnsServer, type DnsServer } from './dnsServer.js';

let server: DnsServer;
let at: string;

beforeAll(async () => {
  server = await startDnsServer({
    zone: {
      'web.test': [
        { type: 'A', value: '10.0.0.1' },
        { type: 'A', value: '10.0.0.2' },
        { type: 'AAAA', value: '2001:db8::1' },
        { type: 'TXT', value: 'v=spf1 -all' },
        { type: 'TXT', value: 'x'.repeat(300) },
      ],
      'mail.test': [
        { type: 'MX', value: 'mx1.mail.test', priority: 10 },
        { type: 'MX', value: 'mx2.mail.test', priority: 20 },
        { type: 'NS', value: 'ns1.mail.test' },
        { type: 'SOA', value: 'ns1.mail.test', hostmaster: 'admin.mail.test', serial: 42 },
      ],
      'alias.test': [{ type: 'CNAME', value: 'web.test' }],
      '_http._tcp.web.test': [{ type: 'SRV', value: 'web.test', priority: 1, weight: 5, port: 8080 }],
      '1.0.0.10.in-addr.arpa': [{ type: 'PTR', value: 'web.test' }],
      'slow.test': [{ type: 'A', value: '10.0.0.9' }],
      'silent.test': [{ type: 'A', value: '10.0.0.8' }],
    },
    slow: { 'slow.test': 250 },
    silent: ['silent.test'],
  });
  at = '127.0.0.1';
});

afterAll(async () => {
  await server.close();
});

const run = (fields: Partial<DnsSpec>, ctx = testCheckContext()) =>
  dnsChecker.run(dnsSchema.parse({ name: 'dns-test', server: at, port: server.port, ...fields }), ctx);

describe('dns', () => {
  it('answers A records and exposes them as records/count', async () => {
    const r = await run({ query: 'web.test', querytype: 'A', minrecords: 2, exactreply: ['10.0.0.2', '10.0.0.1'] });
    expect(r.error).toBeUndefined();
    expect(r.pass).toBe(true);
    expect(r.data).toMatchObject({ query: 'web.test', querytype: 'A', count: 2, server: `127.0.0.1:${server.port}` });
    expect((r.data.records as string[]).sort()).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(r.message).toMatch(/^A web\.test: 10\.0\.0\.\d, 10\.0\.0\.\d \(\d+ ms\)$/);
  });

  it('defaults to A and accepts the server as host:port', async () => {
    const r = await dnsChecker.run(
      dnsSchema.parse({ name: 'd', server: `127.0.0.1:${server.port}`, query: 'web.test' }),
      testCheckContext(),
    );
    expect(r.pass).toBe(true);
    expect(r.data.count).toBe(2);
  });

  it('fails when fewer records come back than minrecords', async () => {
    const r = await run({ query: 'web.test', querytype: 'A', minrecords: 3 });
    expect(r.pass).toBe(false);
    expect(r.error).toBe('A web.test returned 2 records, expected at least 3');
  });

  it('fails when the reply differs from exactreply', async () => {
    const r = await run({ query: 'web.test', querytype: 'A', exactreply: ['10.0.0.1'] });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/^A web\.test returned \[10\.0\.0\.\d, 10\.0\.0\.\d\], expected exactly \[10\.0\.0\.1\]$/);
  });

  it('answers TXT (long strings joined), AAAA, MX, NS, SOA, CNAME, SRV and PTR', async () => {
    const txt = await run({ query: 'web.test', querytype: 'txt', exactreply: ['v=spf1 -all', 'x'.repeat(300)] });
    expect(txt.error).toBeUndefined();
    expect((await run({ query: 'web.test', querytype: 'AAAA', exactreply: ['2001:db8::1'] })).pass).toBe(true);
    const mx = await run({
      query: 'mail.test',
      querytype: 'MX',
      exactreply: ['mx1.mail.test. 10', 'mx2.mail.test 20'],
    });
    expect(mx.error).toBeUndefined();
    expect((await run({ query: 'mail.test', querytype: 'NS', exactreply: ['ns1.mail.test.'] })).pass).toBe(true);
    const soa = await run({ query: 'mail.test', querytype: 'SOA' });
    expect(soa.data.records).toEqual(['ns1.mail.test admin.mail.test 42 3600 600 86400 60']);
    expect((await run({ query: 'alias.test', querytype: 'CNAME', exactreply: ['web.test.'] })).pass).toBe(true);
    const srv = await run({ query: '_http._tcp.web.test', querytype: 'SRV', minrecords: 1 });
    expect(srv.data.records).toEqual(['1 5 8080 web.test']);
    const ptr = await run({ query: '10.0.0.1', querytype: 'PTR', exactreply: ['web.test'] });
    expect(ptr.error).toBeUndefined();
  });

  it('fails on a name that does not exist', async () => {
    const r = await run({ query: 'nope.test' });
    expect(r.pass).toBe(false);
    expect(r.error).toBe(`nope.test does not exist (NXDOMAIN) according to 127.0.0.1:${server.port}`);
  });

  it('fails when the name has no records of the type', async () => {
    const r = await run({ query: 'alias.test', querytype: 'MX' });
    expect(r.pass).toBe(false);
    expect(r.error).toBe(`alias.test has no MX records according to 127.0.0.1:${server.port}`);
  });

  it('fails an answer slower than thresholdMillis', async () => {
    const r = await run({ query: 'slow.test', thresholdMillis: 100 });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/^127\.0\.0\.1:\d+ took \d+ ms to answer, over the 100 ms threshold$/);
    expect((await run({ query: 'slow.test', thresholdMillis: 5000 })).pass).toBe(true);
  });

  it('times out on a server that does not answer', async () => {
    const started = Date.now();
    const r = await run({ query: 'silent.test', timeout: '600ms' });
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/did not answer|timed out after 600 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('validates query and querytype', () => {
    expect(dnsSchema.safeParse({ name: 'd' }).error?.issues[0]?.message).toBe(
      'query is required (the name to look up)',
    );
    expect(dnsSchema.safeParse({ name: 'd', query: 'x', querytype: 'BOGUS' }).error?.issues[0]?.message).toMatch(
      /^querytype must be one of A, AAAA/,
    );
    expect(
      dnsChecker.endpoint(
        dnsSchema.parse({ name: 'd', query: 'x.test', querytype: 'mx', server: '1.1.1.1', port: 53 }),
      ),
    ).toBe('MX/x.test@1.1.1.1:53');
  });
});
