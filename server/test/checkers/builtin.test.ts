// The checkers of this folder as the registry sees them: each is a Checker of its own type whose
// schema keeps fields it does not know and whose endpoint reads a minimal spec.
import { describe, expect, it } from 'vitest';
import type { Checker } from '../../src/health/checker.js';
import { dnsChecker } from '../../src/health/checkers/dns.js';
import { execChecker } from '../../src/health/checkers/exec.js';
import { folderChecker } from '../../src/health/checkers/folder.js';
import { httpChecker } from '../../src/health/checkers/http.js';
import { icmpChecker } from '../../src/health/checkers/icmp.js';
import { junitChecker } from '../../src/health/checkers/junit.js';
import { tcpChecker } from '../../src/health/checkers/tcp.js';

const cases: Array<[Checker, Record<string, unknown>, string]> = [
  [httpChecker, { url: 'https://example.com/health' }, 'https://example.com/health'],
  [tcpChecker, { endpoint: 'db:5432' }, 'db:5432'],
  [dnsChecker, { query: 'example.com', querytype: 'A' }, 'A/example.com'],
  [icmpChecker, { endpoint: '10.0.0.1' }, '10.0.0.1'],
  [execChecker, { script: 'echo ok\necho more' }, 'echo ok'],
  [folderChecker, { path: '/var/backups' }, '/var/backups'],
  // junit shows its description when it has one, as canary-checker does.
  [junitChecker, { testResults: '/results/*.xml' }, 'd'],
];

describe('built-in checkers', () => {
  it.each(cases.map(([c, spec, endpoint]) => [c.type, c, spec, endpoint] as const))(
    '%s',
    (type, checker, spec, endpoint) => {
      const parsed = checker.schema.parse({
        name: `${type}-check`,
        description: 'd',
        icon: 'i',
        labels: { team: 'ops', tier: 1 },
        namespace: 'prod',
        owner: 'o',
        severity: 'high',
        test: { expr: 'true' },
        display: { template: '{{.code}}' },
        transform: { javascript: '[]' },
        metrics: [{ name: 'm', type: 'gauge', value: 'x' }],
        transformDeleteStrategy: 'MarkHealthy',
        fieldFromTheFuture: { kept: true },
        ...spec,
      }) as Record<string, unknown> & { name: string };
      expect(parsed.fieldFromTheFuture).toEqual({ kept: true });
      expect(checker.endpoint(parsed)).toBe(endpoint);
    },
  );

  it('have distinct types', () => {
    expect(new Set(cases.map(([c]) => c.type)).size).toBe(cases.length);
  });
});
