// Chat channels deliver for real: each sends to a loopback receiver standing in for the service
// (Slack, Teams, Discord, Mattermost, Google Chat, Telegram), and the test reads the request it got —
// method, path, auth, body. A 5xx answer is a retryable SenderError, a 4xx is not, and no error text
// carries the token.
import { describe, expect, it } from 'vitest';
import { destinationForConnection, destinationForUrl } from '../src/notifications/senders/index.js';
import { testMessage } from './helpers/notification-message.js';
import { sendContext, sendFailure, testConnection, useHttpReceiver } from './helpers/notification-channels.js';

const r = useHttpReceiver();

const port = () => new URL(r.url).port;
const BOT = 'xoxb:123456789012-1234567890123-4mt0t4l1YL3g1T5L4cK70k3N';
const G = '11111111-2222-4333-8444-555555555555';
const T = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const A = '0123456789abcdef0123456789abcdef';
const O = '99999999-8888-4777-8666-555555555555';

/** Each channel's destination pointed at the receiver, with the secret that must never show in errors. */
const channels: { name: string; destination: () => ReturnType<typeof destinationForUrl>; secret: string }[] = [
  {
    name: 'slack bot',
    destination: () => destinationForUrl(`slack://${BOT}@C001?baseUrl=${r.url}/api`),
    secret: '4mt0t4l1YL3g1T5L4cK70k3N',
  },
  {
    name: 'slack webhook',
    destination: () =>
      destinationForUrl(`slack://hook:WNA3PBYV6-F20DUQND3RQ-Webc4MAvoacrpPakR8phF0zi@webhook?baseUrl=${r.url}`),
    secret: 'Webc4MAvoacrpPakR8phF0zi',
  },
  {
    name: 'teams',
    destination: () =>
      destinationForUrl(`teams://${G}@${T}/${A}/${O}/Xsecret1?host=c.webhook.office.com&baseUrl=${r.url}`),
    secret: A,
  },
  {
    name: 'discord',
    destination: () => destinationForUrl(`discord://DiscordSecret1@4242?baseUrl=${r.url}/api`),
    secret: 'DiscordSecret1',
  },
  {
    name: 'mattermost',
    destination: () => destinationForUrl(`mattermost://127.0.0.1:${port()}/MmSecret1?disabletls=yes`),
    secret: 'MmSecret1',
  },
  {
    name: 'googlechat',
    destination: () => destinationForUrl(`googlechat://x/v1/spaces/S1/messages?key=GKey1&token=GTok1&baseUrl=${r.url}`),
    secret: 'GTok1',
  },
  {
    name: 'telegram',
    destination: () => destinationForUrl(`telegram://42:TgSecret1@telegram?chats=7&baseUrl=${r.url}`),
    secret: 'TgSecret1',
  },
];

describe('Slack', () => {
  it('posts Block Kit with chat.postMessage and the bot token as Bearer', async () => {
    r.reply({ body: { ok: true, channel: 'C001', ts: '1700000000.0001' } });
    const { sender, config } = destinationForUrl(`slack://${BOT}@C001?botname=Opsdeck&baseUrl=${r.url}/api`);
    const result = await sender.send(config, testMessage(), sendContext());
    const req = r.last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/chat.postMessage');
    expect(req.headers.authorization).toBe('Bearer xoxb-123456789012-1234567890123-4mt0t4l1YL3g1T5L4cK70k3N');
    expect(req.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(req.json).toMatchObject({
      channel: 'C001',
      text: 'Check api-health failed',
      username: 'Opsdeck',
      blocks: [
        { type: 'header', text: { text: 'Check api-health failed' } },
        { type: 'section', text: { type: 'mrkdwn', text: expect.stringContaining('*api-health* is _down_') } },
        { type: 'actions', elements: [{ type: 'button', url: 'https://opsdeck.example.com/health?checkId=c1' }] },
      ],
    });
    expect(result.response).toEqual({ channel: 'C001', ts: '1700000000.0001' });
  });

  it('reads ok:false as a failure: channel_not_found is final, ratelimited is retried', async () => {
    const { sender, config } = destinationForUrl(`slack://${BOT}@C404?baseUrl=${r.url}/api`);
    r.reply({ body: { ok: false, error: 'channel_not_found' } });
    const final = await sendFailure(sender.send(config, testMessage(), sendContext()));
    expect(final.message).toBe('slack: chat.postMessage: channel_not_found');
    expect(final.retryable).toBe(false);
    r.reply({ body: { ok: false, error: 'ratelimited' } });
    expect((await sendFailure(sender.send(config, testMessage(), sendContext()))).retryable).toBe(true);
  });

  it('posts to an incoming webhook URL kept in a connection', async () => {
    r.reply({ body: 'ok' });
    const { sender, config } = destinationForConnection(
      testConnection({ type: 'slack', password: `${r.url}/services/T000/B000/XXXX` }),
    );
    await sender.send(config, testMessage(), sendContext());
    const req = r.last();
    expect(req.path).toBe('/services/T000/B000/XXXX');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.json).toMatchObject({ text: 'Check api-health failed', blocks: [{ type: 'header' }, {}, {}] });
  });
});

describe('Teams', () => {
  it('posts an Adaptive Card message to a Workflows URL from a connection', async () => {
    r.reply({ status: 202, body: '' });
    const { sender, config } = destinationForConnection(
      testConnection({
        type: 'teams',
        password: `${r.url}/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=SIG`,
      }),
    );
    await sender.send(config, testMessage(), sendContext());
    const req = r.last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/workflows/abc/triggers/manual/paths/invoke');
    expect(req.query.get('sig')).toBe('SIG');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toMatchObject({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            body: [{ type: 'TextBlock', text: 'Check api-health failed' }, { type: 'TextBlock' }],
            actions: [{ type: 'Action.OpenUrl', url: 'https://opsdeck.example.com/health?checkId=c1' }],
          },
        },
      ],
    });
  });

  it('posts to the webhookb2 path built from a teams:// URL', async () => {
    const { sender, config } = destinationForUrl(
      `teams://${G}@${T}/${A}/${O}/V2x?host=c.webhook.office.com&baseUrl=${r.url}`,
    );
    await sender.send(config, testMessage(), sendContext());
    expect(r.last().path).toBe(`/webhookb2/${G}@${T}/IncomingWebhook/${A}/${O}/V2x`);
  });
});

describe('Discord', () => {
  it('executes the webhook with an embed and waits for the message', async () => {
    r.reply({ body: { id: 'm1', channel_id: 'ch1' } });
    const { sender, config } = destinationForUrl(`discord://DiscordSecret1@4242?username=Opsdeck&baseUrl=${r.url}/api`);
    const result = await sender.send(config, testMessage(), sendContext());
    const req = r.last();
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/webhooks/4242/DiscordSecret1?wait=true');
    expect(req.json).toMatchObject({
      username: 'Opsdeck',
      embeds: [
        { title: 'Check api-health failed', url: 'https://opsdeck.example.com/health?checkId=c1', color: 0xd60510 },
      ],
    });
    expect(result.response).toEqual({ id: 'm1', channel_id: 'ch1' });
  });

  it('reads the webhook ID and token of a connection', async () => {
    const { sender, config } = destinationForConnection(
      testConnection({ type: 'discord', username: '99', password: 'ConnTok', url: `${r.url}/api` }),
    );
    await sender.send(config, testMessage(), sendContext());
    expect(r.last().path).toBe('/api/webhooks/99/ConnTok');
  });
});

describe('Mattermost', () => {
  it('posts an attachment to /hooks/{token} with channel and bot name', async () => {
    r.reply({ body: 'ok' });
    const { sender, config } = destinationForUrl(
      `mattermost://Opsdeck@127.0.0.1:${port()}/MmSecret1/alerts?disabletls=yes`,
    );
    await sender.send(config, testMessage(), sendContext());
    const req = r.last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hooks/MmSecret1');
    expect(req.json).toMatchObject({
      channel: 'alerts',
      username: 'Opsdeck',
      attachments: [
        { title: 'Check api-health failed', title_link: testMessage().permalink, text: testMessage().body },
      ],
    });
  });
});

describe('Google Chat', () => {
  it('posts a text message to the space webhook with key and token', async () => {
    r.reply({ body: { name: 'spaces/S1/messages/M1', thread: { name: 'spaces/S1/threads/T1' } } });
    const { sender, config } = destinationForConnection(
      testConnection({ type: 'googlechat', password: `${r.url}/v1/spaces/S1/messages?key=GKey1&token=GTok1` }),
    );
    const result = await sender.send(config, testMessage(), sendContext());
    const req = r.last();
    expect(req.path).toBe('/v1/spaces/S1/messages');
    expect(req.query.get('key')).toBe('GKey1');
    expect(req.query.get('token')).toBe('GTok1');
    expect(req.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect((req.json as { text: string }).text).toContain(
      '<https://opsdeck.example.com/health?checkId=c1|Open in Opsdeck>',
    );
    expect(result.response).toEqual({ name: 'spaces/S1/messages/M1', thread: 'spaces/S1/threads/T1' });
  });
});

describe('Telegram', () => {
  it('sends to every chat with sendMessage in HTML', async () => {
    r.reply({ body: { ok: true, result: { message_id: 7 } } });
    const { sender, config } = destinationForUrl(
      `telegram://42:TgSecret1@telegram?chats=-1001,@ops&preview=no&baseUrl=${r.url}`,
    );
    const result = await sender.send(config, testMessage(), sendContext());
    expect(r.requests.map((q) => [q.method, q.path, (q.json as { chat_id: string }).chat_id])).toEqual([
      ['POST', '/bot42:TgSecret1/sendMessage', '-1001'],
      ['POST', '/bot42:TgSecret1/sendMessage', '@ops'],
    ]);
    expect(r.last().json).toMatchObject({
      parse_mode: 'HTML',
      text: expect.stringMatching(/^<b>Check api-health failed<\/b>\n\n<b>api-health<\/b> is <i>down<\/i>/),
      link_preview_options: { is_disabled: true },
      disable_notification: false,
    });
    expect(result.response).toEqual({
      sent: [
        { chat: '-1001', message_id: 7 },
        { chat: '@ops', message_id: 7 },
      ],
    });
  });

  it('names the chat that failed and what Telegram said, without the token', async () => {
    r.reply((req) =>
      (req.json as { chat_id: string }).chat_id === 'gone'
        ? { status: 400, body: { ok: false, error_code: 400, description: `Bad Request: chat not found (${req.url})` } }
        : { body: { ok: true, result: { message_id: 1 } } },
    );
    const { sender, config } = destinationForUrl(`telegram://42:TgSecret1@telegram?chats=gone,5&baseUrl=${r.url}`);
    const err = await sendFailure(sender.send(config, testMessage(), sendContext()));
    expect(err.message).toMatch(/^telegram chat gone: HTTP 400: Bad Request: chat not found .*\(sent to 5\)$/);
    expect(err.message).not.toContain('TgSecret1');
    expect(err.retryable).toBe(false);
  });
});

describe.each(channels)('$name answers', ({ destination, secret }) => {
  it('500 → a retryable SenderError with the status and message', async () => {
    r.reply((req) => ({ status: 500, body: { message: `internal trouble at ${req.url}` } }));
    const { sender, config } = destination();
    const err = await sendFailure(sender.send(config, testMessage(), sendContext()));
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/HTTP 500: internal trouble/);
    expect(err.message).not.toContain(secret);
  });

  it('400 → a SenderError that is not retried', async () => {
    r.reply((req) => ({ status: 400, body: { error: 'invalid_payload', echo: req.url } }));
    const { sender, config } = destination();
    const err = await sendFailure(sender.send(config, testMessage(), sendContext()));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/HTTP 400: invalid_payload/);
    expect(err.message).not.toContain(secret);
  });

  it('429 → retryable', async () => {
    r.reply({ status: 429, body: { message: 'slow down' } });
    const { sender, config } = destination();
    expect((await sendFailure(sender.send(config, testMessage(), sendContext()))).retryable).toBe(true);
  });

  it('describes the destination without the secret', () => {
    const { description } = destination();
    expect(description).not.toContain(secret);
  });
});
