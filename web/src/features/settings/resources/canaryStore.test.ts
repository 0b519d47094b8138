import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/client';
import {
  canaryDocumentFromResource,
  canaryDocumentOf,
  canaryProblemsOf,
  canaryResourceOf,
  emptyCanaryDocument,
} from './canaryStore';
import type { SettingsResourceRow } from './resourcesApi';

const stored: SettingsResourceRow = {
  id: 'c1',
  name: 'web',
  namespace: 'prod',
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
  // The spec column holds the whole resource; JSONB has lost its key order.
  spec: {
    spec: { http: [{ url: 'https://x', name: 'home' }], schedule: '@every 1m' },
    kind: 'Canary',
    metadata: { labels: { team: 'a' }, name: 'web', namespace: 'prod' },
    apiVersion: 'canaries.flanksource.com/v1',
  },
};

describe('health checks on the settings pages', () => {
  it('lifts name, namespace, labels and schedule out of the stored resource for the form', () => {
    expect(canaryDocumentOf(stored)).toEqual({
      name: 'web',
      namespace: 'prod',
      labels: { team: 'a' },
      schedule: '@every 1m',
      spec: { http: [{ name: 'home', url: 'https://x' }] },
    });
  });

  it('shows the Code tab a Canary written in the usual order, and reads it back', () => {
    const resource = canaryResourceOf(canaryDocumentOf(stored));
    expect(Object.keys(resource)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(Object.keys(resource.spec as object)).toEqual(['schedule', 'http']);
    expect(Object.keys((resource.spec as { http: object[] }).http[0])).toEqual(['name', 'url']);
    expect(canaryDocumentFromResource(resource)).toEqual(canaryDocumentOf(stored));
  });

  it('starts a new canary in the default namespace, every 5 minutes', () => {
    expect(canaryResourceOf(emptyCanaryDocument())).toEqual({
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Canary',
      metadata: { name: '', namespace: 'default' },
      spec: { schedule: '@every 5m' },
    });
  });

  it('takes the line and column of each problem from the server’s answer', () => {
    const body = {
      error: 'x',
      errors: [
        { message: 'spec.schedule: "banana" is not a duration (line 6, column 13)', line: 6, column: 13 },
        { message: 'the document is empty' },
      ],
    };
    expect(canaryProblemsOf(new ApiError('x', 400, 'INVALID_RESOURCE', undefined, body))).toEqual([
      { line: 6, column: 13, message: 'spec.schedule: "banana" is not a duration' },
      { line: 1, column: undefined, message: 'the document is empty' },
    ]);
    expect(canaryProblemsOf(new ApiError('busy', 409))).toEqual([]);
    expect(canaryProblemsOf(new Error('network'))).toEqual([]);
  });
});
