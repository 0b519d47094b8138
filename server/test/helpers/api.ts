// Requests to a running server as a test user: JSON string bodies sent as JSON, YAML applied to a
// resource endpoint, and the refusal of a bad resource (400 INVALID_RESOURCE with each problem's
// message, line and column).
import { expect } from 'vitest';
import type { TestUser } from './auth.js';

/** One problem of a refused resource, at its line and column in the text as sent. */
export interface Problem {
  message: string;
  line?: number;
  column?: number;
}

export type ApiInit = RequestInit & { as?: TestUser };

/** `url` and `user` are read at each request (both are set in a beforeAll). */
export function apiClient(url: () => string, user: () => TestUser) {
  /** fetch as `init.as` (the default user when absent); a JSON string body gets content-type JSON. */
  const api = (p: string, init: ApiInit = {}) =>
    fetch(`${url()}${p}`, {
      ...init,
      headers: {
        ...(init.as ?? user()).headers,
        ...(typeof init.body === 'string' && /^[[{]/.test(init.body) ? { 'content-type': 'application/json' } : {}),
        ...(init.headers as Record<string, string>),
      },
    });
  /** POSTs YAML to a resource endpoint. */
  const applyYaml = (p: string, yaml: string, as?: TestUser) =>
    api(p, { method: 'POST', body: yaml, headers: { 'content-type': 'application/yaml' }, as });
  /** Applies YAML that must be refused: asserts 400 INVALID_RESOURCE and answers its problems. */
  const refused = async (p: string, yaml: string, as?: TestUser): Promise<Problem[]> => {
    const res = await applyYaml(p, yaml, as);
    const body = (await res.json()) as { code: string; errors: Problem[] };
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.code).toBe('INVALID_RESOURCE');
    return body.errors;
  };
  return { api, applyYaml, refused };
}
