// docker-compose.yml read with a YAML parser (anchors and merge keys resolved as Compose does):
// PostgreSQL and two Opsdeck replicas sharing the database and keys, behind a proxy that lists both.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { root } from './helpers/processes.js';

interface Service {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  depends_on?: unknown;
  ports?: string[];
  command?: string[];
}

const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  configs: Record<string, { content: string }>;
};

describe('docker-compose.yml', () => {
  it('runs PostgreSQL and two replicas that share the database URL and the keys, behind a proxy', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual(['opsdeck-1', 'opsdeck-2', 'postgres', 'proxy']);
    expect(services.postgres!.image).toMatch(/^postgres:1[5-9]/);
    const replicas = [services['opsdeck-1']!, services['opsdeck-2']!];
    for (const r of replicas) {
      expect(r.build).toBe('.');
      expect(r.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
      expect(r.environment!.DATABASE_URL).toMatch(/^postgres:\/\/opsdeck:.*@postgres:5432\/opsdeck$/);
      expect(r.environment!.OPSDECK_ENCRYPTION_KEY).toMatch(/^\$\{OPSDECK_ENCRYPTION_KEY:\?/);
      expect(r.environment!.AUTH_SECRET).toMatch(/^\$\{AUTH_SECRET:\?/);
    }
    expect(replicas[0]!.environment).toEqual(replicas[1]!.environment);
    // max_connections covers both pools.
    const maxConnections = Number(/max_connections=(\d+)/.exec(services.postgres!.command!.join(' '))![1]);
    expect(maxConnections).toBeGreaterThanOrEqual(2 * Number(replicas[0]!.environment!.DATABASE_POOL_SIZE) + 10);
    expect(services.proxy!.ports).toEqual(['8080:8080']);
    const nginx = compose.configs.nginx!.content;
    expect(nginx).toContain('server opsdeck-1:8080');
    expect(nginx).toContain('server opsdeck-2:8080');
  });
});
