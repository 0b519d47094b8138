import { describe, expect, it } from 'vitest';
import { runStatus } from './history.js';

describe('job run status', () => {
  it('is FAILED, WARNING with errors, else SUCCESS', () => {
    expect(runStatus({ failed: true, errors: [] })).toBe('FAILED');
    expect(runStatus({ failed: false, errors: ['x'] })).toBe('WARNING');
    expect(runStatus({ failed: false, errors: [] })).toBe('SUCCESS');
  });
});
