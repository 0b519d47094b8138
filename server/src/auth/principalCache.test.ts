import { describe, expect, it } from 'vitest';
import type { Principal } from './identity.js';
import { PrincipalCache } from './principalCache.js';

const person = (id: string): Principal => ({
  id,
  name: id,
  email: null,
  avatar: null,
  roles: ['viewer'],
  via: 'token',
  twoFactorEnabled: false,
});

describe('PrincipalCache', () => {
  it('keeps an entry until its end, and forgets a person when told', () => {
    const cache = new PrincipalCache(1_000);
    const now = Date.now();
    cache.set('a', { principal: person('p1'), until: now + 1_000 }, cache.generation);
    cache.set('b', { principal: person('p1'), until: now + 1_000 }, cache.generation);
    cache.set('c', { principal: person('p2'), until: now + 1_000 }, cache.generation);
    expect(cache.get('a')?.principal.id).toBe('p1');
    expect(cache.get('a', now + 1_000)).toBeUndefined();
    cache.forgetPerson('p1');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')?.principal.id).toBe('p2');
  });

  it('does not store a look-up that a notification or a loss overtook', () => {
    const cache = new PrincipalCache(1_000);
    const until = Date.now() + 1_000;
    let generation = cache.generation;
    cache.forgetPerson('someone else');
    cache.set('a', { principal: person('p1'), until }, generation);
    expect(cache.get('a')).toBeUndefined();
    generation = cache.generation;
    cache.clear();
    cache.set('a', { principal: person('p1'), until }, generation);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', { principal: person('p1'), until }, cache.generation);
    expect(cache.size).toBe(1);
  });

  it('stores nothing when switched off or already expired', () => {
    const off = new PrincipalCache(0);
    off.set('a', { principal: person('p1'), until: Date.now() + 1_000 }, off.generation);
    expect(off.size).toBe(0);
    const on = new PrincipalCache(1_000);
    on.set('a', { principal: person('p1'), until: Date.now() - 1 }, on.generation);
    expect(on.size).toBe(0);
  });
});
