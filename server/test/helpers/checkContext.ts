// A CheckContext for checker tests: a real AbortSignal with a timeout, connections from a map,
// secrets resolved from inline values only.
import type { CheckContext, EnvValue, ResolvedConnection } from '../../src/health/checker.js';

export function testCheckContext(
  options: { timeoutMs?: number; connections?: Record<string, Partial<ResolvedConnection>> } = {},
): CheckContext {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    canary: { id: '00000000-0000-4000-8000-0000000000ca', name: 'test-canary', namespace: 'default', labels: {} },
    signal: AbortSignal.timeout(timeoutMs),
    timeoutMs,
    async connection(ref: string) {
      const name = ref.replace(/^connection:\/\/(?:[^/]+\/)?/, '');
      const c = options.connections?.[name];
      if (!c) return undefined;
      return {
        name,
        type: c.type ?? 'generic',
        url: c.url ?? null,
        username: c.username ?? null,
        password: c.password ?? null,
        certificate: c.certificate ?? null,
        insecureTls: c.insecureTls ?? false,
        properties: c.properties ?? {},
      };
    },
    async resolve(value: EnvValue | undefined) {
      if (value === undefined || typeof value === 'string') return value;
      if (value.value !== undefined) return value.value;
      throw new Error('secret references are not available in this test context');
    },
  };
}
