import { describe, expect, it } from 'vitest';
import { RETURN_TO_FORBIDDEN, safeReturnTo } from './returnTo';

const origin = 'http://127.0.0.1:8080';

describe('return_to after sign-in', () => {
  it('honours paths on this origin', () => {
    expect(safeReturnTo('/health?timeRange=1h#x', origin)).toEqual({ ok: true, path: '/health?timeRange=1h#x' });
    expect(safeReturnTo('http://127.0.0.1:8080/settings/users', origin)).toEqual({ ok: true, path: '/settings/users' });
  });

  it('goes to / without a return_to, or when it points at the sign-in page', () => {
    expect(safeReturnTo(null, origin)).toEqual({ ok: true, path: '/' });
    expect(safeReturnTo('', origin)).toEqual({ ok: true, path: '/' });
    expect(safeReturnTo('/login?return_to=/x', origin)).toEqual({ ok: true, path: '/' });
  });

  it.each([
    'https://evil.example/',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'http://127.0.0.1:9999/',
    'https://127.0.0.1:8080/',
    'health',
    '/he\nalth',
  ])("refuses %j with 'The return_to address is not allowed.'", (raw) => {
    expect(safeReturnTo(raw, origin)).toEqual({ ok: false, error: RETURN_TO_FORBIDDEN });
  });
});
