// The icmp checker: the real ping binary against 127.0.0.1, a PATH without ping, and a stand-in ping
// script on PATH that reports packet loss, to exercise the thresholds with a real child process.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createIcmpChecker,
  icmpChecker,
  icmpSchema,
  parsePingOutput,
  PING_MISSING,
  type IcmpSpec,
} from '../../src/health/checkers/icmp.js';
import { findOnPath } from '../../src/connections/process.js';
import { testCheckContext } from '../helpers/checkContext.js';

let emptyDir: string;
let fakeDir: string;

const LOSSY_OUTPUT = `PING 10.9.9.9 (10.9.9.9) 56(84) bytes of data.
64 bytes from 10.9.9.9: icmp_seq=1 ttl=64 time=12.1 ms
64 bytes from 10.9.9.9: icmp_seq=3 ttl=64 time=14.3 ms
64 bytes from 10.9.9.9: icmp_seq=5 ttl=64 time=13.0 ms

--- 10.9.9.9 ping statistics ---
5 packets transmitted, 3 received, 40% packet loss, time 805ms
rtt min/avg/max/mdev = 12.100/13.133/14.300/0.902 ms
`;

beforeAll(async () => {
  emptyDir = await mkdtemp(path.join(os.tmpdir(), 'icmp-empty-'));
  fakeDir = await mkdtemp(path.join(os.tmpdir(), 'icmp-fake-'));
  await writeFile(path.join(fakeDir, 'ping'), `#!/bin/sh\ncat <<'EOF'\n${LOSSY_OUTPUT}EOF\nexit 1\n`);
  await chmod(path.join(fakeDir, 'ping'), 0o755);
});

afterAll(async () => {
  await rm(emptyDir, { recursive: true, force: true });
  await rm(fakeDir, { recursive: true, force: true });
});

const spec = (fields: Partial<IcmpSpec>) => icmpSchema.parse({ name: 'icmp-test', endpoint: '127.0.0.1', ...fields });
const hasPing = async () => (await findOnPath('ping', process.env.PATH)) !== undefined;

describe('icmp with the system ping', () => {
  it('pings 127.0.0.1 and exposes loss and round-trip times', async () => {
    if (!(await hasPing())) throw new Error(`this test needs ping on PATH: ${PING_MISSING}`);
    const r = await icmpChecker.run(spec({ packetCount: 2, thresholdMillis: 1000 }), testCheckContext());
    expect(r.error).toBeUndefined();
    expect(r.pass).toBe(true);
    expect(r.data).toMatchObject({ endpoint: '127.0.0.1', ip: '127.0.0.1', sent: 2, received: 2, packetLoss: 0 });
    expect((r.data.rtt as { avg: number }).avg).toBeGreaterThanOrEqual(0);
    expect(r.message).toMatch(/^2\/2 replies from 127\.0\.0\.1, avg [\d.]+ ms$/);
  });

  it('fails when the average round trip is over thresholdMillis', async () => {
    const r = await icmpChecker.run(spec({ packetCount: 1, thresholdMillis: 0.0001 }), testCheckContext());
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/^average round trip [\d.]+ ms, over the 0\.0001 ms threshold$/);
  });

  it('fails on a host name that does not resolve', async () => {
    const r = await icmpChecker.run(spec({ endpoint: 'no-such-host.invalid', packetCount: 1 }), testCheckContext());
    expect(r.pass).toBe(false);
    expect(r.error).toBe('host not found: no-such-host.invalid');
  });

  it('refuses an endpoint that would read as an option', async () => {
    const r = await icmpChecker.run(spec({ endpoint: '-f' }), testCheckContext());
    expect(r.invalid).toBe(true);
  });
});

describe('icmp without ping, and with a lossy stand-in', () => {
  it('says how to install ping when it is not on PATH', async () => {
    const checker = createIcmpChecker({ pathEnv: () => emptyDir });
    const r = await checker.run(spec({}), testCheckContext());
    expect(r.pass).toBe(false);
    expect(r.error).toBe('the ping binary is not installed (Debian: apt-get install iputils-ping)');
  });

  it('judges packet loss against packetLossThreshold', async () => {
    const checker = createIcmpChecker({ pathEnv: () => `${fakeDir}${path.delimiter}/usr/bin:/bin` });
    const strict = await checker.run(spec({ endpoint: '10.9.9.9', packetCount: 5 }), testCheckContext());
    expect(strict.pass).toBe(false);
    expect(strict.error).toBe('packet loss 40% (2 of 5 lost), over the 0% threshold');
    expect(strict.data).toMatchObject({ ip: '10.9.9.9', sent: 5, received: 3, packetLoss: 40, latency: 13.133 });
    const lenient = await checker.run(
      spec({ endpoint: '10.9.9.9', packetCount: 5, packetLossThreshold: 50 }),
      testCheckContext(),
    );
    expect(lenient.pass).toBe(true);
    expect(lenient.durationMs).toBe(13);
  });
});

describe('parsePingOutput', () => {
  it('reads iputils and busybox statistics', () => {
    expect(parsePingOutput(LOSSY_OUTPUT)).toEqual({
      ip: '10.9.9.9',
      sent: 5,
      received: 3,
      packetLoss: 40,
      rtt: { min: 12.1, avg: 13.133, max: 14.3, mdev: 0.902 },
    });
    const busybox = `PING 1.2.3.4 (1.2.3.4): 56 data bytes\n\n--- 1.2.3.4 ping statistics ---\n3 packets transmitted, 3 packets received, 0% packet loss\nround-trip min/avg/max = 0.1/0.2/0.3 ms\n`;
    expect(parsePingOutput(busybox)).toMatchObject({
      sent: 3,
      received: 3,
      packetLoss: 0,
      rtt: { min: 0.1, avg: 0.2, max: 0.3 },
    });
    const allLost = `PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.\n\n--- 10.0.0.1 ping statistics ---\n3 packets transmitted, 0 received, +3 errors, 100% packet loss, time 2003ms\n`;
    expect(parsePingOutput(allLost)).toMatchObject({ sent: 3, received: 0, packetLoss: 100, rtt: undefined });
    expect(parsePingOutput('ping: unknown host')).toBeUndefined();
  });
});
