// The mongodb checker. No MongoDB server runs on this machine (and none can be downloaded), so these
// tests cover the spec, URL/connection resolution and the failure paths against real closed ports.
import { describe, expect, it } from 'vitest';
import { mongodbChecker, mongoHosts } from '../../src/health/checkers/mongodb.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort } from './ports.js';

function spec(fields: Record<string, unknown>) {
  return mongodbChecker.schema.parse({ name: 'mongo', ...fields });
}

describe('mongodb', () => {
  it('accepts canary-checker fields and shows the url without credentials', () => {
    const s = spec({
      url: 'mongodb://$(username):$(password)@mongo.default.svc:27017/?authSource=admin',
      username: { valueFrom: { secretKeyRef: { name: 'mongo', key: 'user' } } },
      password: { value: 'x' },
    });
    expect(mongodbChecker.endpoint(s)).toBe('mongodb://mongo.default.svc:27017/?authSource=admin');
    expect(mongoHosts('mongodb://u:p@a:1,b:2/db?x=1')).toBe('a:1,b:2');
  });

  it('is invalid without a url, with a non-mongodb url, or with an unresolvable secret', async () => {
    expect(await mongodbChecker.run(spec({}), testCheckContext())).toMatchObject({
      pass: false,
      invalid: true,
      error: 'mongodb check needs a url or a connection',
    });
    expect(await mongodbChecker.run(spec({ url: 'http://mongo:27017' }), testCheckContext())).toMatchObject({
      invalid: true,
      error: 'url must start with mongodb:// or mongodb+srv:// (got http://mongo:27017)',
    });
    const secret = await mongodbChecker.run(
      spec({
        url: 'mongodb://$(username)@127.0.0.1:1',
        username: { valueFrom: { secretKeyRef: { name: 'mongo', key: 'user' } } },
      }),
      testCheckContext(),
    );
    expect(secret).toMatchObject({ invalid: true });
    expect(secret.error).toMatch(/^credentials could not be resolved: /);
    expect(
      await mongodbChecker.run(spec({ url: 'mongodb://127.0.0.1:1/?notAnOption=1&w=banana' }), testCheckContext()),
    ).toMatchObject({ invalid: true });
  });

  it('a refused connection fails with host and port, within the check timeout', async () => {
    const port = await closedPort();
    const started = Date.now();
    const r = await mongodbChecker.run(
      spec({ url: `mongodb://127.0.0.1:${port}/` }),
      testCheckContext({ timeoutMs: 2000 }),
    );
    expect(r).toMatchObject({ pass: false, error: `connection refused: 127.0.0.1:${port}` });
    expect(r.invalid).toBeFalsy();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('resolves a connection and URL-encodes $(username)/$(password), so awkward secrets keep the URL valid', async () => {
    const port = await closedPort();
    const ctx = testCheckContext({
      timeoutMs: 1500,
      connections: {
        mongo: {
          type: 'mongo',
          url: `mongodb://$(username):$(password)@127.0.0.1:${port}/admin`,
          username: 'ad@min',
          password: 'p@ss:w/rd?#',
        },
      },
    });
    const r = await mongodbChecker.run(spec({ connection: 'connection://mongo/mongo' }), ctx);
    // Unencoded, '@' and '/' in the password would make the driver reject the URL (invalid) instead.
    expect(r).toMatchObject({ pass: false, error: `connection refused: 127.0.0.1:${port}` });
    expect(r.invalid).toBeFalsy();
  });

  it('an unknown connection is invalid', async () => {
    expect(
      await mongodbChecker.run(spec({ connection: 'connection://mongo/missing' }), testCheckContext()),
    ).toMatchObject({ invalid: true, error: 'connection connection://mongo/missing was not found' });
  });
});
