import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('refuses an ADMIN_EMAIL that sign-in would refuse, naming the variable', () => {
    process.env.ADMIN_EMAIL = 'a@b.c';
    expect(() => loadConfig()).toThrow(/ADMIN_EMAIL must be a valid email address.*"a@b\.c"/);
    process.env.ADMIN_EMAIL = 'ops@example.com';
    expect(loadConfig().adminEmail).toBe('ops@example.com');
  });

  it('reads OPSDECK_ENCRYPTION_KEY, and leaves it unset by default', () => {
    delete process.env.OPSDECK_ENCRYPTION_KEY;
    expect(loadConfig().encryptionKey).toBeUndefined();
    process.env.OPSDECK_ENCRYPTION_KEY = 'k';
    expect(loadConfig().encryptionKey).toBe('k');
  });
});
