// The s3 checker against a real S3-compatible server started in-process with `s3rver` (test-only
// dependency; it speaks the S3 REST API over HTTP and verifies AWS signatures with its own keys).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Checker } from '../../src/health/checkers/s3.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort } from './ports.js';

// s3rver's fixed credentials.
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

let server: S3rver;
let dir: string;
let endpoint: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'opsdeck-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'canary', configs: [] }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function spec(fields: Record<string, unknown>) {
  return s3Checker.schema.parse({ name: 's3', ...fields });
}

describe('s3', () => {
  it('accepts canary-checker fields (and the older bucket: {name, endpoint})', () => {
    const s = spec({
      bucketName: 'b',
      objectPath: 'x/y',
      accessKey: { valueFrom: { secretKeyRef: { name: 'aws', key: 'id' } } },
      secretKey: { value: 's' },
      region: 'eu-west-1',
      endpoint: 'https://minio:9000',
      usePathStyle: true,
      skipTLSVerify: true,
    });
    expect(s3Checker.endpoint(s)).toBe('https://minio:9000/b');
    expect(s3Checker.endpoint(spec({ bucket: { name: 'old', endpoint: 'http://s3.local' } }))).toBe(
      'http://s3.local/old',
    );
  });

  it('lists, puts, gets and deletes an object', async () => {
    const r = await s3Checker.run(
      spec({
        endpoint,
        bucketName: 'canary',
        objectPath: 'checks/probe.txt',
        accessKey: { value: ACCESS_KEY },
        secretKey: { value: SECRET_KEY },
        usePathStyle: true,
      }),
      testCheckContext(),
    );
    expect(r).toMatchObject({
      pass: true,
      message: 'listed, wrote, read and deleted checks/probe.txt in canary',
      data: { bucket: 'canary', objectPath: 'checks/probe.txt', listed: 0 },
    });
    expect(Object.keys(r.data.timings as object)).toEqual(['listMs', 'putMs', 'getMs', 'deleteMs']);
    // Deleted afterwards: the next run lists an empty bucket again.
    const again = await s3Checker.run(
      spec({ endpoint, bucketName: 'canary', accessKey: ACCESS_KEY, secretKey: SECRET_KEY }),
      testCheckContext(),
    );
    expect(again).toMatchObject({ pass: true, data: { listed: 0, objectPath: '.opsdeck-canary/s3-check' } });
  });

  it('takes credentials, endpoint and region from an AWS connection', async () => {
    const ctx = testCheckContext({
      connections: {
        minio: {
          type: 'aws',
          url: endpoint,
          username: ACCESS_KEY,
          password: SECRET_KEY,
          properties: { region: 'eu-central-1' },
        },
      },
    });
    const r = await s3Checker.run(
      spec({ connection: 'connection://aws/minio', bucketName: 'canary', objectPath: 'conn.txt' }),
      ctx,
    );
    expect(r.pass).toBe(true);
  });

  it('fails naming the step and the S3 error: missing bucket, unknown access key', async () => {
    const missing = await s3Checker.run(
      spec({ endpoint, bucketName: 'nope', accessKey: ACCESS_KEY, secretKey: SECRET_KEY }),
      testCheckContext(),
    );
    expect(missing).toMatchObject({
      pass: false,
      error: `listing bucket nope failed on ${endpoint}/nope: NoSuchBucket: The specified bucket does not exist (HTTP 404)`,
    });
    // s3rver checks the access key id but does not verify SigV4 signatures, so a wrong *secret* key cannot be tested here.
    const wrong = await s3Checker.run(
      spec({ endpoint, bucketName: 'canary', accessKey: 'NOT-A-KEY', secretKey: SECRET_KEY }),
      testCheckContext(),
    );
    expect(wrong).toMatchObject({
      pass: false,
      error: `listing bucket canary failed on ${endpoint}/canary: InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records. (HTTP 403)`,
    });
  });

  it('fails clearly when nothing listens; missing bucket or keys are invalid', async () => {
    const port = await closedPort();
    const r = await s3Checker.run(
      spec({
        endpoint: `http://127.0.0.1:${port}`,
        bucketName: 'canary',
        accessKey: ACCESS_KEY,
        secretKey: SECRET_KEY,
      }),
      testCheckContext(),
    );
    expect(r).toMatchObject({
      pass: false,
      error: `listing bucket canary failed on http://127.0.0.1:${port}/canary: connection refused: 127.0.0.1:${port}`,
    });
    expect(
      await s3Checker.run(spec({ endpoint, accessKey: ACCESS_KEY, secretKey: SECRET_KEY }), testCheckContext()),
    ).toMatchObject({ invalid: true, error: 'bucketName is required' });
    expect(await s3Checker.run(spec({ endpoint, bucketName: 'canary' }), testCheckContext())).toMatchObject({
      invalid: true,
      error: 'accessKey and secretKey (or an AWS connection) are required',
    });
  });
});
