import { describe, expect, it } from 'vitest';
import { acceptsGzip } from './encoding.js';

describe('acceptsGzip', () => {
  it('takes gzip when it is listed, with or without a weight above 0', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('x-gzip')).toBe(true);
  });

  it('refuses gzip when it is missing, weighted 0, or excluded beside a wildcard', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0.000, *;q=1')).toBe(false);
  });

  it('takes gzip through a wildcard unless the wildcard is weighted 0', () => {
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('br, *;q=0.1')).toBe(true);
    expect(acceptsGzip('*;q=0')).toBe(false);
  });
});
