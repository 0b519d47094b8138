// The connection Test of HTTP-based services, clouds and Kubernetes against loopback stand-ins that
// check the path and credentials they receive: Slack auth.test (and a webhook probed without posting),
// Discord, Telegram, Mattermost, ntfy, Gotify, a generic webhook (OPTIONS only), Prometheus, Loki,
// OpenSearch, GitHub, GitLab, S3, AWS STS, a GCP service account, a kubeconfig, and a password kept as
// a secret:// reference read from Kubernetes. No answer and no output shows a secret.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { captureOutput, leakedSecrets, recordingClient } from './helpers/recording.js';

const S = {
  slack: 'xoxb-slack-S3cret-token',
  prom: 'Prom-S3cret-pass',
  github: 'ghp_GitHubS3cretToken',
  gitlab: 'glpat-GitLabS3cret',
  discord: 'Discord-S3cret-token',
  telegram: '12345:Telegram-S3cret',
  ntfy: 'Ntfy-S3cret-pass',
  awsSecret: 'Aws-S3cret-Key',
  k8s: 'K8s-S3cret-token',
  fromSecret: 'Prom-Fr0m-Kubernetes',
  wrong: 'Wr0ng-S3cret-value',
};
const gcpKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (k: crypto.KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }).toString();

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

/** Answers like each service would, to the right credentials only. */
function answer(req: Received, res: http.ServerResponse) {
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const auth = req.headers.authorization ?? '';
  const u = new URL(req.url, 'http://x');
  const p = u.pathname;
  if (p === '/slack/api/auth.test')
    return json(
      200,
      auth === `Bearer ${S.slack}` ? { ok: true, user: 'opsdeck', team: 'Ops' } : { ok: false, error: 'invalid_auth' },
    );
  if (p === '/hooks/slack-ok') return res.writeHead(400).end('invalid_payload');
  if (p === '/hooks/slack-gone') return res.writeHead(404).end('no_service');
  if (p === '/webhook') return res.writeHead(req.method === 'OPTIONS' ? 204 : 200).end();
  if (p === '/prom/api/v1/status/buildinfo') {
    if (auth !== basic('prom', S.prom) && auth !== basic('prom', S.fromSecret))
      return res.writeHead(401).end('Unauthorized');
    return json(200, { status: 'success', data: { version: '2.53.0' } });
  }
  if (p === '/loki/ready') return res.writeHead(req.headers['x-scope-orgid'] === 'team-a' ? 200 : 503).end('ready\n');
  if (p === '/os/')
    return json(200, { cluster_name: 'logs', version: { number: '2.11.0', distribution: 'opensearch' } });
  if (p === '/github/user')
    return auth === `Bearer ${S.github}` ? json(200, { login: 'octocat' }) : json(401, { message: 'Bad credentials' });
  if (p === '/gitlab/api/v4/user')
    return req.headers['private-token'] === S.gitlab
      ? json(200, { username: 'tanuki' })
      : json(401, { message: '401 Unauthorized' });
  if (p.startsWith('/discord/webhooks/42/'))
    return p === `/discord/webhooks/42/${S.discord}`
      ? json(200, { name: 'alerts', channel_id: '99' })
      : json(401, { message: 'Invalid Webhook Token', code: 50027 });
  if (p.startsWith('/telegram/bot'))
    return p === `/telegram/bot${S.telegram}/getMe`
      ? json(200, { ok: true, result: { username: 'ops_bot' } })
      : json(401, { ok: false, error_code: 401, description: 'Unauthorized' });
  if (p === '/ntfy/ops/json') return res.writeHead(auth === basic('ntfy', S.ntfy) ? 200 : 403).end('');
  if (p === '/gotify/version') return json(200, { version: '2.5.0' });
  if (p === '/mm/api/v4/system/ping') return json(200, { status: 'OK' });
  if (p === '/ops-bucket' || p === '/ops-bucket/') {
    if (!auth.includes('Credential=AKIAOPSDECK/')) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      return res.end(
        '<Error><Code>InvalidAccessKeyId</Code><Message>The AWS Access Key Id you provided does not exist in our records.</Message></Error>',
      );
    }
    res.writeHead(200, { 'content-type': 'application/xml' });
    return res.end(
      '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>ops-bucket</Name><KeyCount>1</KeyCount><MaxKeys>1</MaxKeys><IsTruncated>true</IsTruncated><Contents><Key>a.txt</Key><Size>1</Size></Contents></ListBucketResult>',
    );
  }
  if (p === '/sts/') {
    res.writeHead(200, { 'content-type': 'text/xml' });
    return res.end(
      '<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:user/ops</Arn><UserId>AIDA</UserId><Account>123456789012</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetCallerIdentityResponse>',
    );
  }
  if (p === '/gcp/token') {
    const assertion = new URLSearchParams(req.body).get('assertion') ?? '';
    const [h, c, sig] = assertion.split('.');
    const valid = crypto.verify(
      'RSA-SHA256',
      Buffer.from(`${h}.${c}`),
      gcpKey.publicKey,
      Buffer.from(sig ?? '', 'base64url'),
    );
    return valid
      ? json(200, { access_token: 'ya29.token', expires_in: 3600 })
      : json(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
  }
  if (p.startsWith('/api/v1/')) {
    if (auth !== `Bearer ${S.k8s}`) return json(401, { kind: 'Status', message: 'Unauthorized', code: 401 });
    if (p === '/api/v1/namespaces')
      return json(200, { kind: 'NamespaceList', items: [{ metadata: { name: 'default' } }] });
    if (p === '/api/v1/namespaces/monitoring/secrets/prom-creds')
      return json(200, { kind: 'Secret', data: { password: Buffer.from(S.fromSecret).toString('base64') } });
    return json(404, { kind: 'Status', message: `secrets "${p.split('/').pop()}" not found`, code: 404 });
  }
  res.writeHead(404).end('not here');
}

describe.each(databaseKinds())('connection tests of services on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let output: ReturnType<typeof captureOutput>;
  const received: Received[] = [];
  const standIn = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const r = { method: req.method!, url: req.url!, headers: req.headers, body };
      received.push(r);
      answer(r, res);
    });
  });
  let base = '';
  const api = recordingClient(
    () => app.url,
    () => admin,
  );
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-conn-svc-'));
  const kubeconfig = () =>
    [
      'apiVersion: v1',
      'kind: Config',
      // The client refuses plain http unless TLS verification is off.
      `clusters: [{name: stand-in, cluster: {server: "${base}", insecure-skip-tls-verify: true}}]`,
      `users: [{name: ops, user: {token: "${S.k8s}"}}]`,
      'contexts: [{name: ops, context: {cluster: stand-in, user: ops}}]',
      'current-context: ops',
    ].join('\n');

  beforeAll(async () => {
    output = captureOutput();
    await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
  });

  afterAll(async () => {
    output?.restore();
    await app?.close();
    await test?.close();
    standIn.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const testForm = (row: Record<string, unknown>) =>
    api.call<{ message: string; details?: string; error?: string }>('/api/connection/test', { body: row });
  const last = (pathPrefix: string) => [...received].reverse().find((r) => r.url.startsWith(pathPrefix))!;

  it('Slack: auth.test with the bot token; a webhook URL only probed with GET', async () => {
    const ok = await testForm({ type: 'slack', url: `${base}/slack/api`, password: S.slack });
    expect(ok).toMatchObject({
      status: 200,
      body: { details: 'auth.test accepted the bot token: user opsdeck in workspace Ops' },
    });
    expect(last('/slack/api/auth.test')).toMatchObject({
      method: 'POST',
      headers: { authorization: `Bearer ${S.slack}` },
    });
    const wrong = await testForm({ type: 'slack', url: `${base}/slack/api`, password: S.wrong });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'Slack refused the token: invalid_auth' } });
    const hook = await testForm({ type: 'slack', password: `${base}/hooks/slack-ok` });
    expect(hook.status).toBe(200);
    expect(hook.body.details).toMatch(/answered GET with 400 Bad Request; no message was sent/);
    expect(last('/hooks/slack-ok').method).toBe('GET');
    const gone = await testForm({ type: 'slack', password: `${base}/hooks/slack-gone` });
    expect(gone.body.error).toMatch(/^Slack says the webhook does not exist: 404 Not Found no_service/);
  });

  it('Discord, Telegram, Mattermost, Gotify, ntfy: read endpoints, nothing sent', async () => {
    expect(
      await testForm({ type: 'discord', url: `${base}/discord`, username: '42', password: S.discord }),
    ).toMatchObject({
      status: 200,
      body: { details: 'webhook "alerts" of channel 99 found (GET, nothing sent)' },
    });
    expect(
      (await testForm({ type: 'discord', url: `${base}/discord`, username: '42', password: S.wrong })).body.error,
    ).toBe('Discord refused the webhook ID or token: Invalid Webhook Token');
    expect(
      await testForm({
        type: 'telegram',
        url: `${base}/telegram`,
        password: S.telegram,
        properties: { chats: '-100' },
      }),
    ).toMatchObject({ status: 200, body: { details: 'getMe: the token belongs to bot @ops_bot' } });
    expect(
      (await testForm({ type: 'telegram', url: `${base}/telegram`, password: S.wrong, properties: { chats: '-100' } }))
        .body.error,
    ).toBe('Telegram refused the bot token: Unauthorized');
    expect((await testForm({ type: 'mattermost', url: `${base}/mm`, password: 'hook-token' })).status).toBe(200);
    expect((await testForm({ type: 'gotify', url: `${base}/gotify`, password: 'app-token' })).body.details).toMatch(
      /^Gotify 2\.5\.0/,
    );
    const ntfy = { type: 'ntfy', url: `${base}/ntfy`, username: 'ntfy', properties: { topic: 'ops' } };
    expect(await testForm({ ...ntfy, password: S.ntfy })).toMatchObject({ status: 200 });
    expect(last('/ntfy/ops/json').url).toBe('/ntfy/ops/json?poll=1&since=latest');
    expect((await testForm({ ...ntfy, password: S.wrong })).body.error).toBe(
      'ntfy refused access to topic ops: 403 Forbidden',
    );
    expect(received.filter((r) => r.method === 'POST' && !/auth\.test|sts|gcp/.test(r.url))).toEqual([]);
  });

  it('a generic webhook is only asked OPTIONS', async () => {
    const res = await testForm({ type: 'generic_webhook', url: `${base}/webhook` });
    expect(res.status).toBe(200);
    expect(res.body.details).toMatch(/answered OPTIONS with 204 No Content; the webhook itself is not called/);
    expect(received.filter((r) => r.url === '/webhook').map((r) => r.method)).toEqual(['OPTIONS']);
  });

  it('Prometheus, Loki, OpenSearch: their read endpoints with the credentials', async () => {
    const prom = { type: 'prometheus', url: `${base}/prom`, username: 'prom' };
    expect(await testForm({ ...prom, password: S.prom })).toMatchObject({
      status: 200,
      body: { details: `Prometheus 2.53.0 answered GET ${base}/prom/api/v1/status/buildinfo` },
    });
    expect(last('/prom/').headers.authorization).toBe(basic('prom', S.prom));
    expect((await testForm({ ...prom, password: S.wrong })).body.error).toBe(
      'Prometheus refused the credentials: 401 Unauthorized',
    );
    expect(
      (await testForm({ type: 'loki', url: `${base}/loki`, properties: { tenant: 'team-a' } })).body.details,
    ).toMatch(/^Loki is ready/);
    expect((await testForm({ type: 'loki', url: `${base}/loki` })).body.error).toBe('Loki is not ready: ready');
    expect((await testForm({ type: 'opensearch', url: `${base}/os` })).body.details).toBe(
      `OpenSearch 2.11.0 (cluster logs) answered GET ${base}/os/`,
    );
  });

  it('GitHub /user and GitLab /api/v4/user say who the token is', async () => {
    expect((await testForm({ type: 'github', url: `${base}/github`, password: S.github })).body.details).toBe(
      `GET ${base}/github/user: signed in as octocat`,
    );
    expect(last('/github/user').headers.authorization).toBe(`Bearer ${S.github}`);
    expect((await testForm({ type: 'github', url: `${base}/github`, password: S.wrong })).body.error).toBe(
      'GitHub refused the credentials: 401 Unauthorized (Bad credentials)',
    );
    expect((await testForm({ type: 'gitlab', url: `${base}/gitlab`, password: S.gitlab })).body.details).toBe(
      `GET ${base}/gitlab/api/v4/user: signed in as tanuki`,
    );
  });

  it('S3 lists one key; AWS asks STS who the keys are; GCP exchanges a signed JWT', async () => {
    const s3 = {
      type: 's3',
      url: base,
      password: S.awsSecret,
      properties: { bucket: 'ops-bucket', usePathStyle: 'true' },
    };
    const ok = await testForm({ ...s3, username: 'AKIAOPSDECK' });
    expect(ok).toMatchObject({
      status: 200,
      body: { details: `listed bucket ops-bucket on ${base} (1 of at most 1 key read)` },
    });
    expect(last('/ops-bucket').url).toMatch(/max-keys=1/);
    const wrong = await testForm({ ...s3, username: 'AKIAWRONG' });
    expect(wrong.body.error).toMatch(/^S3 refused the request \(HTTP 403 InvalidAccessKeyId/);
    const aws = await testForm({
      type: 'aws',
      url: `${base}/sts/`,
      username: 'AKIAOPSDECK',
      password: S.awsSecret,
      properties: { region: 'eu-west-1' },
    });
    expect(aws).toMatchObject({
      status: 200,
      body: { details: 'GetCallerIdentity: account 123456789012, arn:aws:iam::123456789012:user/ops' },
    });
    const account = (key: crypto.KeyObject) =>
      JSON.stringify({
        type: 'service_account',
        client_email: 'ops@p.iam.gserviceaccount.com',
        private_key: pem(key),
        token_uri: `${base}/gcp/token`,
      });
    expect((await testForm({ type: 'gcp', certificate: account(gcpKey.privateKey) })).body.details).toBe(
      `${base} issued a token to service account ops@p.iam.gserviceaccount.com`,
    );
    expect((await testForm({ type: 'gcp', certificate: account(otherKey.privateKey) })).body.error).toBe(
      'Google refused the credentials (invalid_grant: Invalid JWT Signature.)',
    );
  });

  it('Kubernetes lists a namespace with the kubeconfig it holds', async () => {
    expect((await testForm({ type: 'kubernetes', certificate: kubeconfig() })).body.details).toBe(
      `${base} listed namespaces (first: default) for context ops`,
    );
    const wrong = kubeconfig().replace(S.k8s, S.wrong);
    expect((await testForm({ type: 'kubernetes', certificate: wrong })).body.error).toBe(
      `${base} refused the credentials (HTTP 401)`,
    );
  });

  it('reads a secret:// password from Kubernetes in the connection namespace', async () => {
    const file = path.join(tmp, 'kubeconfig');
    fs.writeFileSync(file, kubeconfig());
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = file;
    try {
      const created = await api.call<{ id: string }[]>('/api/db/connections', {
        body: {
          name: 'prom-ref',
          namespace: 'monitoring',
          type: 'prometheus',
          url: `${base}/prom`,
          username: 'prom',
          password: 'secret://prom-creds/password',
        },
        headers: { prefer: 'return=representation' },
      });
      expect(created.status).toBe(201);
      const res = await api.call<{ details: string }>(`/api/connection/test/${created.body[0]!.id}`, {
        method: 'POST',
      });
      expect(res).toMatchObject({ status: 200, body: { message: 'ok' } });
      expect(last('/prom/').headers.authorization).toBe(basic('prom', S.fromSecret));
      const missing = await testForm({
        type: 'prometheus',
        namespace: 'monitoring',
        url: `${base}/prom`,
        password: 'secret://prom-creds/token',
      });
      expect(missing.body.error).toBe(
        'password secret://prom-creds/token: secret monitoring/prom-creds has no key "token"',
      );
      const other = await testForm({ type: 'prometheus', url: `${base}/prom`, password: 'secret://nope/password' });
      expect(other.body.error).toBe(
        'password secret://nope/password: cannot read secret default/nope: secrets "nope" not found (HTTP 404)',
      );
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });

  it('never shows a secret in any answer or in the server output', () => {
    const leaks = leakedSecrets({ answers: api.bodies.join('\n'), output: output.text() }, Object.values(S));
    expect(leaks).toEqual([]);
  });
});
