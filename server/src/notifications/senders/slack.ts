// Slack: a bot token posts with chat.postMessage (Bearer auth, `ok` checked), a webhook token or
// hooks.slack.com URL posts to that incoming webhook. The message is Block Kit: a header with the
// title, the body in mrkdwn and a button linking to the console; `text` carries the title for
// notifications. URL forms (shoutrrr 0.7+ and the older one):
//   slack://xoxb:123-456-abc@C0123456789[?botname=&icon=&color=&thread_ts=&baseUrl=]   bot token (also xoxp)
//   slack://hook:T000-B000-XXXX@webhook[?baseUrl=]                                    incoming webhook
//   slack://[botname@]T000/B000/XXXX                                                  incoming webhook (old form)
//   https://hooks.slack.com/services/T000/B000/XXXX                                   incoming webhook URL
// `baseUrl` replaces https://slack.com/api (bot) or https://hooks.slack.com (webhook); a connection's
// URL column is the API URL, its password the bot token or a webhook URL, properties.channel the channel.
import type { ResolvedConnection } from '../../connections/resolve.js';
import { LINK_LABEL, severityColor } from './content.js';
import {
  badDestination,
  baseUrl,
  connectionSecret,
  decode,
  parseUrl,
  propertyOptions,
  queryOptions,
  request,
  sendOptions,
  type Options,
} from './http.js';
import { markdownToSlack, truncate } from './markdown.js';
import { SenderError, type NotificationMessage, type SendContext, type Sender } from './sender.js';

const EXPECTED = 'slack://xoxb:token@channel, slack://hook:token@webhook or https://hooks.slack.com/services/...';
const API_URL = 'https://slack.com/api';
const HOOKS_URL = 'https://hooks.slack.com';

export type SlackConfig =
  | { kind: 'bot'; token: string; channel: string; apiUrl: string; options: Options }
  | { kind: 'webhook'; webhookUrl: string; options: Options };

const HOOK_TOKEN = /^(?:hook[-:])?([A-Z0-9]{8,})[-/,]([A-Z0-9]{8,})[-/,]([A-Za-z0-9]{20,})$/;
const BOT_TOKEN = /^xox[a-z]-[A-Za-z0-9-]+$/;

function webhookFromToken(token: string, base: string | undefined): string | undefined {
  const m = HOOK_TOKEN.exec(token);
  return m ? `${base ?? HOOKS_URL}/services/${m[1]}/${m[2]}/${m[3]}` : undefined;
}

export function parseSlackUrl(raw: string): SlackConfig {
  const url = parseUrl(raw, 'slack', EXPECTED);
  const options = queryOptions(url);
  if (url.protocol === 'https:' || url.protocol === 'http:') {
    if (!/^\/services\/[^/]+\/[^/]+\/[^/]+/.test(url.pathname))
      throw badDestination('slack', 'a webhook URL has the path /services/T…/B…/…', EXPECTED);
    url.search = '';
    return { kind: 'webhook', webhookUrl: url.toString(), options: {} };
  }
  if (url.protocol !== 'slack:') throw badDestination('slack', `unknown scheme ${url.protocol}`, EXPECTED);
  const base = baseUrl(options.baseurl, 'slack');
  delete options.baseurl;
  const user = decode(url.username);
  const pass = decode(url.password);
  const host = decode(url.hostname);
  if (url.pathname.length > 1) {
    // Old form: the webhook's three parts are host and path; a user is the bot name.
    const webhookUrl = webhookFromToken(`${host}${url.pathname}`, base);
    if (!webhookUrl) throw badDestination('slack', 'the webhook token is not valid', EXPECTED);
    if (user) options.botname ??= user;
    return { kind: 'webhook', webhookUrl, options };
  }
  const token = pass ? `${user}:${pass}` : user;
  if (!token) throw badDestination('slack', 'the token is missing', EXPECTED);
  if (user === 'hook' || host === 'webhook') {
    const webhookUrl = webhookFromToken(token, base);
    if (!webhookUrl) throw badDestination('slack', 'the webhook token is not valid', EXPECTED);
    return { kind: 'webhook', webhookUrl, options };
  }
  const botToken = pass ? `${user}-${pass}` : user;
  if (!BOT_TOKEN.test(botToken))
    throw badDestination('slack', 'the token must start with xoxb, xoxp or hook', EXPECTED);
  if (!host) throw badDestination('slack', 'the channel is missing', EXPECTED);
  return { kind: 'bot', token: botToken, channel: host, apiUrl: base ?? API_URL, options };
}

export function slackFromConnection(conn: ResolvedConnection): SlackConfig {
  const secret = connectionSecret(conn, 'slack', 'bot token or webhook URL');
  const options = propertyOptions(conn.properties);
  if (/^https?:\/\//i.test(secret)) {
    parseUrl(secret, 'slack', EXPECTED);
    return { kind: 'webhook', webhookUrl: secret, options };
  }
  if (secret.startsWith('slack://')) return parseSlackUrl(secret);
  const hook = webhookFromToken(secret, undefined);
  if (hook) return { kind: 'webhook', webhookUrl: hook, options };
  if (!BOT_TOKEN.test(secret))
    throw badDestination('slack', `connection ${conn.name}: the token must be a bot token (xoxb-…) or a webhook URL`);
  const channel = options.channel;
  if (!channel) throw badDestination('slack', `connection ${conn.name} has a bot token but no channel`);
  return { kind: 'bot', token: secret, channel, apiUrl: baseUrl(conn.url, 'slack') ?? API_URL, options };
}

/** Block Kit for the message: header (title), section (body in mrkdwn), actions (link button). */
export function slackBlocks(message: NotificationMessage): unknown[] {
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(message.title || ' ', 150), emoji: true } },
  ];
  const body = markdownToSlack(message.body).trim();
  if (body) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: truncate(body, 3000) } });
  if (message.permalink)
    blocks.push({
      type: 'actions',
      elements: [
        { type: 'button', text: { type: 'plain_text', text: LINK_LABEL }, url: message.permalink, action_id: 'open' },
      ],
    });
  return blocks;
}

function payload(config: SlackConfig, message: NotificationMessage): Record<string, unknown> {
  const opt = sendOptions(config.options, message.properties);
  const blocks = slackBlocks(message);
  const color = opt('color');
  const out: Record<string, unknown> = { text: truncate(message.title, 3000) };
  // A colour needs the blocks inside an attachment (Slack has no colour bar for top-level blocks).
  if (color) out.attachments = [{ color: color === 'severity' ? severityColor(message) : color, blocks }];
  else out.blocks = blocks;
  const botname = opt('botname', 'username');
  if (botname) out.username = botname;
  const icon = opt('icon', 'icon_emoji', 'icon_url');
  if (icon) out[/^https?:\/\//.test(icon) ? 'icon_url' : 'icon_emoji'] = icon;
  const thread = opt('thread_ts', 'threadts');
  if (thread) out.thread_ts = thread;
  return out;
}

/** chat.postMessage answers 200 with ok:false; these errors may pass on a later try. */
const TRANSIENT = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

export const slackSender: Sender<SlackConfig> = {
  channel: 'slack',
  schemes: ['slack'],
  connectionTypes: ['slack'],
  fromUrl: parseSlackUrl,
  fromConnection: slackFromConnection,
  describe(config) {
    if (config.kind === 'bot') return `slack channel ${config.channel} (bot token)`;
    try {
      return `slack incoming webhook (${new URL(config.webhookUrl).host})`;
    } catch {
      return 'slack incoming webhook';
    }
  },
  async send(config, message, ctx: SendContext) {
    const body = payload(config, message);
    if (config.kind === 'webhook') {
      // The webhook's path is its secret.
      const path = new URL(config.webhookUrl).pathname;
      const answer = await request('slack', { url: config.webhookUrl, json: body }, ctx, [
        config.webhookUrl,
        path,
        path.split('/').pop(),
      ]);
      return { response: { status: answer.status, body: answer.text.slice(0, 200) } };
    }
    const answer = await request(
      'slack',
      {
        url: `${config.apiUrl}/chat.postMessage`,
        headers: { authorization: `Bearer ${config.token}`, 'content-type': 'application/json; charset=utf-8' },
        json: { channel: config.channel, ...body },
      },
      ctx,
      [config.token],
    );
    const result = (answer.json ?? {}) as { ok?: boolean; error?: string; channel?: string; ts?: string };
    if (result.ok !== true) {
      const error = result.error ?? 'no "ok" in the answer';
      throw new SenderError(`slack: chat.postMessage: ${error}`, TRANSIENT.has(error));
    }
    return { response: { channel: result.channel, ts: result.ts } };
  },
};
