import { describe, expect, it } from 'vitest';
import { inResourceOrder, UUID } from './routes.js';

describe('resource routes helpers', () => {
  it('puts apiVersion, kind, metadata and spec first, keeping the other keys', () => {
    const stored = { spec: { a: 1 }, extra: true, metadata: { name: 'x' }, kind: 'K', apiVersion: 'v1' };
    expect(Object.keys(inResourceOrder(stored))).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'extra']);
  });

  it('takes only UUIDs as ids', () => {
    expect(UUID.test('0b6f5c1e-7d3a-4c2b-9f10-2a3b4c5d6e7f')).toBe(true);
    expect(UUID.test('1; DROP TABLE x')).toBe(false);
  });
});
