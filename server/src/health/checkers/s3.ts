// The `s3` check (canary-checker): against `bucketName` on AWS S3 or an S3-compatible `endpoint`, lists the
// bucket, puts a small random object at `objectPath`, reads it back (must match), then deletes it.
// Credentials: `accessKey`/`secretKey`/`sessionToken` (EnvValues) or an AWS connection (username = access
// key, password = secret key, url = endpoint, properties.region). Data: `bucket`, `objectPath`, `listed`,
// and `timings` {listMs, putMs, getMs, deleteMs}.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { commonFields, fail, guarded, invalid } from './common.js';
import { describeError, SpecError } from '../../connections/errors.js';
import { envValueSchema } from '../../connections/envValue.js';
import { resolveField } from '../../connections/resolve.js';

const schema = z.looseObject({
  ...commonFields,
  connection: z.string().optional(),
  accessKey: envValueSchema.optional(),
  secretKey: envValueSchema.optional(),
  sessionToken: envValueSchema.optional(),
  region: z.string().optional(),
  endpoint: z.string().optional(),
  bucketName: z.string().optional(),
  objectPath: z.string().optional(),
  usePathStyle: z.boolean().optional(),
  skipTLSVerify: z.boolean().optional(),
  // Older canary-checker files: `bucket: {name, region, endpoint}`.
  bucket: z
    .looseObject({ name: z.string().optional(), region: z.string().optional(), endpoint: z.string().optional() })
    .optional(),
});
export type S3Spec = z.infer<typeof schema>;

const DEFAULT_OBJECT_PATH = '.opsdeck-canary/s3-check';

function bucketOf(spec: S3Spec): string {
  return spec.bucketName || spec.bucket?.name || '';
}

function endpointOf(spec: S3Spec): string {
  const endpoint = spec.endpoint || spec.bucket?.endpoint;
  const bucket = bucketOf(spec);
  return endpoint ? `${endpoint.replace(/\/+$/, '')}/${bucket}` : bucket ? `s3://${bucket}` : '';
}

/** The AWS SDK is large: it loads on the first s3 check, not when the server starts. */
let sdk: typeof import('@aws-sdk/client-s3') | undefined;
async function loadSdk() {
  return (sdk ??= await import('@aws-sdk/client-s3'));
}

/** An S3 error as a person reads it: "NoSuchBucket: The specified bucket does not exist (HTTP 404)". */
function describeS3Error(e: unknown, where: string): string {
  if (sdk && e instanceof sdk.S3ServiceException) {
    const status = e.$metadata?.httpStatusCode;
    const message = e.message && e.message !== e.name && e.message !== 'UnknownError' ? `: ${e.message}` : '';
    return `${e.name}${message}${status ? ` (HTTP ${status})` : ''}`;
  }
  return describeError(e, where);
}

async function run(spec: S3Spec, ctx: CheckContext): Promise<CheckResult> {
  let where = endpointOf(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const connection = spec.connection ? await ctx.connection(spec.connection) : undefined;
      if (spec.connection && !connection) throw new SpecError(`connection ${spec.connection} was not found`);
      const accessKey = (await resolveField(ctx, 'accessKey', spec.accessKey)) || connection?.username || undefined;
      const secretKey = (await resolveField(ctx, 'secretKey', spec.secretKey)) || connection?.password || undefined;
      const sessionToken =
        (await resolveField(ctx, 'sessionToken', spec.sessionToken)) ||
        connection?.properties.sessionToken ||
        undefined;
      const bucket = bucketOf(spec) || connection?.properties.bucket || '';
      if (!bucket) return invalid('bucketName is required');
      if (!accessKey || !secretKey) return invalid('accessKey and secretKey (or an AWS connection) are required');
      const region = spec.region || spec.bucket?.region || connection?.properties.region || 'us-east-1';
      let endpoint = spec.endpoint || spec.bucket?.endpoint || connection?.url || undefined;
      if (endpoint && !/^https?:\/\//i.test(endpoint)) endpoint = `https://${endpoint}`;
      if (endpoint) {
        try {
          new URL(endpoint);
        } catch {
          return invalid(`endpoint ${JSON.stringify(endpoint)} is not a valid URL`);
        }
      }
      const usePathStyle =
        spec.usePathStyle ??
        (connection?.properties.usePathStyle ? connection.properties.usePathStyle === 'true' : !!endpoint);
      const insecure = spec.skipTLSVerify ?? connection?.insecureTls ?? false;
      where = endpoint ? `${endpoint.replace(/\/+$/, '')}/${bucket}` : `s3://${bucket} (${region})`;
      const objectPath = spec.objectPath?.replace(/^\/+/, '') || DEFAULT_OBJECT_PATH;

      const { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } =
        await loadSdk();
      const httpAgent = new http.Agent({ keepAlive: false });
      const httpsAgent = new https.Agent({ keepAlive: false, rejectUnauthorized: !insecure });
      const client = new S3Client({
        region,
        endpoint,
        forcePathStyle: usePathStyle,
        credentials: { accessKeyId: accessKey, secretAccessKey: secretKey, sessionToken },
        // One attempt: the check reports failures rather than retrying them away.
        maxAttempts: 1,
        // S3-compatible servers (MinIO, Ceph, older gateways) often reject the SDK's default CRC checksums.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: { connectionTimeout: ctx.timeoutMs, requestTimeout: ctx.timeoutMs, httpAgent, httpsAgent },
      });
      const opts = { abortSignal: ctx.signal };
      const timings: Record<string, number> = {};
      const data: Record<string, unknown> = { bucket, objectPath, timings };
      const step = async <T>(name: string, what: string, fn: () => Promise<T>): Promise<T> => {
        const started = performance.now();
        try {
          return await fn();
        } catch (e) {
          if (ctx.signal.aborted) throw e;
          throw new StepError(`${what} failed on ${where}: ${describeS3Error(e, where)}`);
        } finally {
          timings[`${name}Ms`] = Math.round(performance.now() - started);
        }
      };
      try {
        const listed = await step('list', `listing bucket ${bucket}`, () =>
          client.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1 }), opts),
        );
        data.listed = listed.KeyCount ?? listed.Contents?.length ?? 0;
        const content = `opsdeck s3 check ${new Date().toISOString()} ${randomBytes(8).toString('hex')}`;
        await step('put', `putting ${objectPath}`, () =>
          client.send(
            new PutObjectCommand({ Bucket: bucket, Key: objectPath, Body: content, ContentType: 'text/plain' }),
            opts,
          ),
        );
        const got = await step('get', `getting ${objectPath}`, async () => {
          const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectPath }), opts);
          return res.Body ? await res.Body.transformToString() : '';
        });
        if (got !== content)
          return fail(
            `${objectPath} read back from ${where} differs from what was written (${got.length} bytes, expected ${content.length})`,
            data,
          );
        await step('delete', `deleting ${objectPath}`, () =>
          client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectPath }), opts),
        );
        return { pass: true, message: `listed, wrote, read and deleted ${objectPath} in ${bucket}`, data };
      } catch (e) {
        if (e instanceof StepError) return fail(e.message, data);
        throw e;
      } finally {
        client.destroy();
        httpAgent.destroy();
        httpsAgent.destroy();
      }
    },
  );
}

class StepError extends Error {
  override name = 'StepError';
}

export const s3Checker: Checker<S3Spec> = {
  type: 's3',
  schema,
  endpoint: (spec) => endpointOf(spec) || spec.name,
  run,
};

export default s3Checker;
