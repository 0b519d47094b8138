// Push, incident and webhook channels deliver for real: ntfy, Gotify, PagerDuty, Opsgenie and the generic
// webhook send to a loopback receiver and the test reads the request it got. 5xx, 408 and 429 are
// retryable, other 4xx are not; timeouts and refused connections are retryable; no error shows a secret.
import { describe, expect, it } from 'vitest';
import { destinationForConnection, destinationForUrl } from '../src/notifications/senders/index.js';
import { startHttpReceiver } from './helpers/http-receiver.js';
import { testMessage } from './helpers/notification-message.js';
import { sendContext, sendFailure, testConnection, useHttpReceiver } from './helpers/notification-channels.js';

const r = useHttpReceiver();

const port = () => new URL(r.url).port;
const PD_KEY = 'eb243592faa24ba2a5511afdf565c889';

const channels: { name: string; destination: () => ReturnType<typeof destinationForUrl>; secret: string }[] = [
  {
    name: 'ntfy',
    destination: () => destinationForUrl(`ntfy://u:NtfyPass1@127.0.0.1:${port()}/alerts?scheme=http`),
    secret: 'NtfyPass1',
  },
  {
    name: 'gotify',
    destination: () => destinationForUrl(`gotify://127.0.0.1:${port()}/GotifyTok1?disabletls=yes`),
    secret: 'GotifyTok1',
  },
  {
    name: 'pagerduty',
    destination: () => destinationForUrl(`pagerduty:///${PD_KEY}?baseUrl=${r.url}`),
    secret: PD_KEY,
  },
  {
    name: 'opsgenie',
    destination: () => destinationForUrl(`opsgenie:///GenieKey1?baseUrl=${r.url}`),
    secret: 'GenieKey1',
  },
  {
    name: 'generic',
    destination: () => destinationForUrl(`generic+http://127.0.0.1:${port()}/hook?@X-Api-Key=HookKey1&token=QueryTok1`),
    secret: 'HookKey1',
  },
];

describe('ntfy', () => {
  it('publishes the body to /topic with Title, Priority, Tags, Click, Markdown and Basic auth', async () => {
    r.reply({ body: { id: 'n1', time: 1700000000 } });
    const { sender, config } = destinationForUrl(`ntfy://u:NtfyPass1@127.0.0.1:${port()}/alerts?scheme=http&tags=prod`);
    const result = await sender.send(config, testMessage(), sendContext());
    const req = r.last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/alerts');
    expect(req.body).toBe(testMessage().body);
    expect(req.headers).toMatchObject({
      title: 'Check api-health failed',
      priority: '5',
      tags: 'rotating_light,prod',
      click: 'https://opsdeck.example.com/health?checkId=c1',
      markdown: 'yes',
      authorization: `Basic ${Buffer.from('u:NtfyPass1').toString('base64')}`,
    });
    expect(result.response).toEqual({ id: 'n1', time: 1700000000 });
  });

  it('sends an access token alone as Bearer (connection) and resolved at default priority', async () => {
    const { sender, config } = destinationForConnection(
      testConnection({ type: 'ntfy', url: r.url, password: 'tk_abc', properties: { topic: 'ops' } }),
    );
    await sender.send(config, testMessage({ state: 'resolved' }), sendContext());
    expect(r.last().path).toBe('/ops');
    expect(r.last().headers).toMatchObject({ authorization: 'Bearer tk_abc', priority: '3', tags: 'white_check_mark' });
  });
});

describe('Gotify', () => {
  it('posts {title, message, priority, extras} to /message?token=', async () => {
    r.reply({ body: { id: 12, appid: 3 } });
    const { sender, config } = destinationForUrl(`gotify://127.0.0.1:${port()}/sub/GotifyTok1?disabletls=yes`);
    const result = await sender.send(config, testMessage(), sendContext());
    const req = r.last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/sub/message');
    expect(req.query.get('token')).toBe('GotifyTok1');
    expect(req.json).toEqual({
      title: 'Check api-health failed',
      message: testMessage().body,
      priority: 8,
      extras: {
        'client::display': { contentType: 'text/markdown' },
        'client::notification': { click: { url: 'https://opsdeck.example.com/health?checkId=c1' } },
      },
    });
    expect(result.response).toEqual({ id: 12, appid: 3 });
  });
});

describe('PagerDuty', () => {
  it('triggers, then resolves the same dedup_key, on /v2/enqueue', async () => {
    r.reply((req) => ({
      status: 202,
      body: { status: 'success', message: 'Event processed', dedup_key: (req.json as { dedup_key: string }).dedup_key },
    }));
    const { sender, config } = destinationForConnection(
      testConnection({ type: 'pagerduty', password: PD_KEY, url: r.url, properties: { severity: 'warning' } }),
    );
    const result = await sender.send(config, testMessage(), sendContext());
    expect(r.last().path).toBe('/v2/enqueue');
    expect(r.last().json).toMatchObject({
      routing_key: PD_KEY,
      event_action: 'trigger',
      dedup_key: 'rule-1:check-c1',
      client: 'Opsdeck',
      client_url: 'https://opsdeck.example.com/health?checkId=c1',
      payload: { summary: 'Check api-health failed', source: 'api-health', severity: 'warning' },
      links: [{ href: 'https://opsdeck.example.com/health?checkId=c1' }],
    });
    expect(result.response).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'rule-1:check-c1' });
    await sender.send(config, testMessage({ state: 'resolved' }), sendContext());
    expect(r.last().json).toEqual({ routing_key: PD_KEY, event_action: 'resolve', dedup_key: 'rule-1:check-c1' });
  });

  it("reports PagerDuty's invalid-event answer as final", async () => {
    r.reply({
      status: 400,
      body: { status: 'invalid event', message: 'Event object is invalid', errors: ['Length of summary is invalid'] },
    });
    const { sender, config } = destinationForUrl(`pagerduty:///?integrationKey=${PD_KEY}&baseUrl=${r.url}`);
    const err = await sendFailure(sender.send(config, testMessage(), sendContext()));
    expect(err.message).toBe(
      'pagerduty: HTTP 400: invalid event; Event object is invalid; Length of summary is invalid',
    );
    expect(err.retryable).toBe(false);
  });
});

describe('Opsgenie', () => {
  it('creates an alert with GenieKey auth and alias = dedupKey, closes it by alias when resolved', async () => {
    r.reply({ status: 202, body: { result: 'Request will be processed', took: 0.1, requestId: 'rq1' } });
    const { sender, config } = destinationForConnection(
      testConnection({
        type: 'opsgenie',
        password: 'GenieKey1',
        properties: { host: r.url, port: '443', responders: 'team:sre' },
      }),
    );
    const result = await sender.send(config, testMessage(), sendContext());
    let req = r.last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v2/alerts');
    expect(req.headers.authorization).toBe('GenieKey GenieKey1');
    expect(req.json).toMatchObject({
      message: 'Check api-health failed',
      alias: 'rule-1:check-c1',
      priority: 'P1',
      responders: [{ type: 'team', name: 'sre' }],
    });
    expect(result.response).toEqual({ result: 'Request will be processed', requestId: 'rq1' });
    await sender.send(config, testMessage({ state: 'resolved' }), sendContext());
    req = r.last();
    expect(req.url).toBe('/v2/alerts/rule-1%3Acheck-c1/close?identifierType=alias');
    expect(req.headers.authorization).toBe('GenieKey GenieKey1');
    expect(req.json).toMatchObject({ source: 'Opsdeck' });
  });
});

describe('Generic webhook', () => {
  it('posts {title, message} JSON with custom keys, headers, extra fields and forwarded query', async () => {
    r.reply({ body: 'accepted' });
    const { sender, config } = destinationForUrl(
      `generic+http://127.0.0.1:${port()}/hook?@X-Api-Key=HookKey1&$team=sre&titlekey=subject&_method=keep`,
    );
    const result = await sender.send(config, testMessage(), sendContext());
    const req = r.last();
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/hook?method=keep');
    expect(req.headers['x-api-key']).toBe('HookKey1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({ team: 'sre', subject: 'Check api-health failed', message: testMessage().body });
    expect(result.response).toEqual({ status: 200, body: 'accepted' });
  });

  it('renders a connection body template, with its method, content type and Basic auth', async () => {
    const { sender, config } = destinationForConnection(
      testConnection({
        type: 'generic_webhook',
        url: `${r.url}/in`,
        username: 'svc',
        password: 'Pw1',
        properties: {
          method: 'PUT',
          contentType: 'text/plain',
          bodyTemplate: '[{{.severity}}] {{.title}} {{.permalink}}',
        },
      }),
    );
    await sender.send(config, testMessage(), sendContext());
    const req = r.last();
    expect(req.method).toBe('PUT');
    expect(req.headers['content-type']).toBe('text/plain');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('svc:Pw1').toString('base64')}`);
    expect(req.body).toBe('[critical] Check api-health failed https://opsdeck.example.com/health?checkId=c1');
  });

  it('gives up after the timeout, retryably', async () => {
    r.reply({ hang: true });
    const { sender, config } = destinationForUrl(`generic+http://127.0.0.1:${port()}/slow`);
    const err = await sendFailure(sender.send(config, testMessage(), sendContext(300)));
    expect(err.message).toBe('generic: no answer within 300 ms');
    expect(err.retryable).toBe(true);
  });

  it('reports a refused connection as retryable', async () => {
    const closed = await startHttpReceiver();
    await closed.close();
    const { sender, config } = destinationForUrl(`generic+${closed.url}/x`);
    const err = await sendFailure(sender.send(config, testMessage(), sendContext()));
    expect(err.message).toMatch(/^generic: could not reach 127\.0\.0\.1:\d+: ECONNREFUSED$/);
    expect(err.retryable).toBe(true);
  });
});

describe.each(channels)('$name answers', ({ destination, secret }) => {
  it('500 → a retryable SenderError with the status and message', async () => {
    r.reply((req) => ({
      status: 500,
      body: { message: `internal trouble at ${req.url} ${JSON.stringify(req.headers)}` },
    }));
    const { sender, config } = destination();
    const err = await sendFailure(sender.send(config, testMessage(), sendContext()));
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/HTTP 500: internal trouble/);
    expect(err.message).not.toContain(secret);
  });

  it('400 → a SenderError that is not retried', async () => {
    r.reply((req) => ({ status: 400, body: { error: 'bad request', echo: req.url } }));
    const { sender, config } = destination();
    const err = await sendFailure(sender.send(config, testMessage(), sendContext()));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/HTTP 400: bad request/);
    expect(err.message).not.toContain(secret);
  });

  it('408 → retryable', async () => {
    r.reply({ status: 408, body: 'timeout' });
    const { sender, config } = destination();
    expect((await sendFailure(sender.send(config, testMessage(), sendContext()))).retryable).toBe(true);
  });

  it('describes the destination without the secret', () => {
    expect(destination().description).not.toContain(secret);
  });
});
