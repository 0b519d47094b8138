// Tests of cloud credentials by a harmless read: S3 `ListObjectsV2` (one key) on the bucket, AWS STS
// `GetCallerIdentity`, an Azure AD client-credentials token, a GCP service-account token (a JWT
// signed with the account's key, exchanged at its token_uri).
import crypto from 'node:crypto';
import https from 'node:https';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { describeError } from '../errors.js';
import type { ResolvedConnection } from '../resolve.js';
import { httpRequest, jsonOf, originOf, parseHttpUrl } from './httpClient.js';
import { prop, required, TestFailure, type ConnectionTester, type TestContext } from './tester.js';

/** What the AWS SDK clients share: region, endpoint, keys, time limit, TLS verification. */
function awsConfig(conn: ResolvedConnection, ctx: TestContext, defaultRegion: string) {
  return {
    region: prop(conn, 'region') || defaultRegion,
    endpoint: conn.url || undefined,
    credentials: {
      accessKeyId: required(conn.username, 'Access Key'),
      secretAccessKey: required(conn.password, 'Secret Key'),
    },
    maxAttempts: 1,
    requestHandler: {
      connectionTimeout: ctx.timeoutMs,
      requestTimeout: ctx.timeoutMs,
      httpsAgent: new https.Agent({ rejectUnauthorized: !conn.insecureTls }),
    },
  };
}

/** An AWS SDK error as a person reads it: "InvalidAccessKeyId: The AWS Access Key Id ..." or the socket's cause. */
function awsFailure(service: string, e: unknown, where: string): TestFailure {
  const err = e as Error & { $metadata?: { httpStatusCode?: number }; Code?: string };
  if (err.$metadata?.httpStatusCode) {
    const code = err.Code ?? err.name;
    const text = err.message && err.message !== code && err.message !== 'UnknownError' ? `: ${err.message}` : '';
    return new TestFailure(`${service} refused the request (HTTP ${err.$metadata.httpStatusCode} ${code}${text})`);
  }
  return new TestFailure(describeError(e, where));
}

export const s3Tester: ConnectionTester = {
  types: ['s3'],
  async test(conn, ctx) {
    const bucket = required(prop(conn, 'bucket'), 'Bucket');
    const client = new S3Client({
      ...awsConfig(conn, ctx, 'us-east-1'),
      forcePathStyle: prop(conn, 'usePathStyle') === 'true',
    });
    const where = conn.url ? originOf(parseHttpUrl(conn.url, 'Endpoint')) : 'S3';
    try {
      const out = await client.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1 }), {
        abortSignal: ctx.signal,
      });
      return { details: `listed bucket ${bucket} on ${where} (${out.KeyCount ?? 0} of at most 1 key read)` };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      throw awsFailure('S3', e, where);
    } finally {
      client.destroy();
    }
  },
};

export const awsTester: ConnectionTester = {
  types: ['aws'],
  async test(conn, ctx) {
    const client = new STSClient(awsConfig(conn, ctx, 'us-east-1'));
    const where = conn.url ? originOf(parseHttpUrl(conn.url, 'Endpoint')) : 'sts.amazonaws.com';
    try {
      const id = await client.send(new GetCallerIdentityCommand({}), { abortSignal: ctx.signal });
      return { details: `GetCallerIdentity: account ${id.Account ?? '?'}, ${id.Arn ?? 'no ARN'}` };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      throw awsFailure('AWS STS', e, where);
    } finally {
      client.destroy();
    }
  },
};

/** Posts an OAuth2 token request; the access token itself is never kept or shown. */
async function requestToken(service: string, tokenUrl: URL, form: Record<string, string>, ctx: TestContext) {
  const answer = await httpRequest(
    tokenUrl,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    },
    ctx,
  );
  const body = jsonOf<{ access_token?: string; error?: string; error_description?: string }>(answer);
  if (answer.status === 200 && body?.access_token) return;
  const why = body?.error
    ? `${body.error}${body.error_description ? `: ${body.error_description.split(/\r?\n/)[0]}` : ''}`
    : answer.statusLine;
  throw new TestFailure(`${service} refused the credentials (${why})`);
}

export const azureTester: ConnectionTester = {
  types: ['azure'],
  async test(conn, ctx) {
    const tenant = required(prop(conn, 'tenant'), 'Tenant ID');
    const clientId = required(conn.username, 'Client ID');
    const url = parseHttpUrl(`https://login.microsoftonline.com/${encodeURIComponent(tenant)}/oauth2/v2.0/token`);
    await requestToken(
      'Azure AD',
      url,
      {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: required(conn.password, 'Client Secret'),
        scope: 'https://management.azure.com/.default',
      },
      ctx,
    );
    return { details: `Azure AD issued a token to client ${clientId} in tenant ${tenant}` };
  },
};

interface ServiceAccount {
  client_email?: string;
  private_key?: string;
  token_uri?: string;
}

export const gcpTester: ConnectionTester = {
  types: ['gcp'],
  async test(conn, ctx) {
    let account: ServiceAccount;
    try {
      account = JSON.parse(required(conn.certificate, 'Service account credentials (JSON)')) as ServiceAccount;
    } catch (e) {
      if (e instanceof TestFailure) throw e;
      throw new TestFailure('Service account credentials must be the JSON key file of a service account');
    }
    const email = required(account.client_email, 'client_email in the service account credentials');
    const key = required(account.private_key, 'private_key in the service account credentials');
    const tokenUri = parseHttpUrl(account.token_uri || 'https://oauth2.googleapis.com/token', 'token_uri');
    const now = Math.floor(Date.now() / 1000);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({
      iss: email,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      aud: tokenUri.href,
      iat: now,
      exp: now + 600,
    })}`;
    let signature: string;
    try {
      signature = crypto.createSign('RSA-SHA256').update(unsigned).sign(key, 'base64url');
    } catch (e) {
      throw new TestFailure(`the service account's private_key cannot sign: ${(e as Error).message}`);
    }
    await requestToken(
      'Google',
      tokenUri,
      { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: `${unsigned}.${signature}` },
      ctx,
    );
    return { details: `${originOf(tokenUri)} issued a token to service account ${email}` };
  },
};
