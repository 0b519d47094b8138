// The shared connection helper: $(username)/$(password) substitution, secrets out of endpoints, how a
// check's own url/credentials combine with a stored connection, and error wording.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeError, liftSocketError, SpecError } from '../../src/connections/errors.js';
import { guarded } from '../../src/health/checkers/common.js';
import { interpolateCredentials, resolveTarget, sanitizeUrl } from '../../src/connections/resolve.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort } from './ports.js';

describe('interpolateCredentials', () => {
  it('URL-encodes into URLs and leaves DSNs verbatim', () => {
    expect(interpolateCredentials('postgres://$(username):$(password)@db/app', 'a@b', 'p:w/d?#%')).toBe(
      'postgres://a%40b:p%3Aw%2Fd%3F%23%25@db/app',
    );
    expect(interpolateCredentials('$(username):$(password)@tcp(db:3306)/app', 'u', 'p@ss')).toBe(
      'u:p@ss@tcp(db:3306)/app',
    );
    expect(interpolateCredentials('mongodb://$(username)@h/$(username)', 'x', undefined)).toBe('mongodb://x@h/x');
    expect(interpolateCredentials('redis://:$(password)@h', undefined, undefined)).toBe('redis://:@h');
  });
});

describe('sanitizeUrl', () => {
  it('drops credentials from URLs and DSNs', () => {
    expect(sanitizeUrl('postgres://u:p%40@db:5432/app?sslmode=disable')).toBe('postgres://db:5432/app?sslmode=disable');
    expect(sanitizeUrl('u:p@ss@tcp(db:3306)/app')).toBe('tcp(db:3306)/app');
    expect(sanitizeUrl('host=db user=u password=secret dbname=x')).toBe('host=db user=u password=### dbname=x');
    expect(sanitizeUrl('http://prom:9090')).toBe('http://prom:9090');
  });
});

describe('resolveTarget', () => {
  const ctx = testCheckContext({
    connections: {
      db: {
        type: 'postgres',
        url: 'postgres://$(username):$(password)@db/app',
        username: 'conn-user',
        password: 'conn-pass',
        insecureTls: true,
        properties: { region: 'x' },
      },
    },
  });

  it('takes url and credentials from a connection, by connection:// reference or by name', async () => {
    for (const ref of ['connection://postgres/db', 'connection://db', 'db']) {
      expect(await resolveTarget({ connection: ref }, ctx)).toMatchObject({
        url: 'postgres://conn-user:conn-pass@db/app',
        username: 'conn-user',
        insecureTls: true,
        properties: { region: 'x' },
      });
    }
  });

  it("lets the check's own url and credentials override the connection's", async () => {
    const t = await resolveTarget(
      { connection: 'db', username: { value: 'mine' }, url: 'postgres://$(username)@other/app' },
      ctx,
    );
    expect(t).toMatchObject({ url: 'postgres://mine@other/app', username: 'mine', password: 'conn-pass' });
  });

  it('treats a connection that is really a URL as the URL (older canary-checker files), else not found', async () => {
    expect((await resolveTarget({ connection: 'postgres://x@h/db' }, ctx)).url).toBe('postgres://x@h/db');
    await expect(resolveTarget({ connection: 'missing' }, ctx)).rejects.toThrow(
      new SpecError('connection missing was not found'),
    );
    await expect(resolveTarget({ connection: 'connection://postgres/missing' }, ctx)).rejects.toThrow(
      'connection connection://postgres/missing was not found',
    );
  });

  it('reports credentials that cannot be resolved as a spec problem', async () => {
    await expect(
      resolveTarget({ url: 'x', password: { valueFrom: { secretKeyRef: { name: 's', key: 'k' } } } }, ctx),
    ).rejects.toBeInstanceOf(SpecError);
  });
});

describe('errors', () => {
  it('words real socket errors', async () => {
    const port = await closedPort();
    const err = await new Promise<Error>((resolve) => net.connect(port, '127.0.0.1').on('error', resolve));
    expect(describeError(err)).toBe(`connection refused: 127.0.0.1:${port}`);
    // Node tries ::1 and 127.0.0.1 for "localhost" and reports both in an AggregateError.
    const agg = await new Promise<Error>((resolve) =>
      net.connect({ port, host: 'localhost', autoSelectFamily: true }).on('error', resolve),
    );
    expect(describeError(agg)).toMatch(new RegExp(`^connection refused: (127\\.0\\.0\\.1|::1):${port}$`));
    expect(liftSocketError('request to http://h/api failed, reason: connect ECONNREFUSED 10.0.0.1:6443')).toBe(
      'connection refused: 10.0.0.1:6443',
    );
  });

  it('guarded turns throws into results and never lets them escape', async () => {
    const ctx = testCheckContext();
    expect(
      await guarded(
        ctx,
        () => 'db:1',
        async () => {
          throw new SpecError('bad spec');
        },
      ),
    ).toMatchObject({ pass: false, invalid: true, error: 'bad spec' });
    expect(
      await guarded(
        ctx,
        () => 'db:1',
        async () => {
          throw Object.assign(new Error('x'), { code: 'ENOTFOUND', hostname: 'db' });
        },
      ),
    ).toMatchObject({ pass: false, error: 'host not found: db' });
  });
});
