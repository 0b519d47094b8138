// Discord: an embed (title linking to the console, the Markdown body, a colour by severity/state)
// executed on a webhook: POST {api}/webhooks/{id}/{token}?wait=true, which answers the created message.
// URL forms:
//   discord://token@webhookId[?username=&avatar=&thread_id=&baseUrl=]   shoutrrr
//   https://discord.com/api/webhooks/{id}/{token}                      the webhook URL (discordapp.com too)
// `baseUrl` replaces https://discord.com/api; a connection has username = webhook ID, password = token
// and url = the API URL.
import type { ResolvedConnection } from '../../connections/resolve.js';
import { severityColor } from './content.js';
import {
  badDestination,
  baseUrl,
  connectionSecret,
  decode,
  option,
  parseUrl,
  propertyOptions,
  queryOptions,
  request,
  sendOptions,
  type Options,
} from './http.js';
import { truncate } from './markdown.js';
import type { NotificationMessage, Sender } from './sender.js';

const EXPECTED = 'discord://token@webhookId or https://discord.com/api/webhooks/{id}/{token}';
const API_URL = 'https://discord.com/api';

export interface DiscordConfig {
  webhookId: string;
  token: string;
  apiUrl: string;
  options: Options;
}

export function parseDiscordUrl(raw: string): DiscordConfig {
  const url = parseUrl(raw, 'discord', EXPECTED);
  const options = queryOptions(url);
  if (url.protocol === 'https:' || url.protocol === 'http:') {
    const m = /^(.*)\/webhooks\/(\d+)\/([^/?]+)\/?$/.exec(url.pathname);
    if (!m) throw badDestination('discord', 'a webhook URL has the path /api/webhooks/{id}/{token}', EXPECTED);
    return { webhookId: m[2], token: decode(m[3]), apiUrl: `${url.protocol}//${url.host}${m[1]}`, options };
  }
  if (url.protocol !== 'discord:') throw badDestination('discord', `unknown scheme ${url.protocol}`, EXPECTED);
  if (url.pathname && url.pathname !== '/')
    throw badDestination('discord', `the path ${url.pathname} is not supported (raw JSON mode is not)`, EXPECTED);
  const token = decode(url.username);
  const webhookId = decode(url.hostname);
  if (!webhookId) throw badDestination('discord', 'the webhook ID is missing', EXPECTED);
  if (!/^\d+$/.test(webhookId)) throw badDestination('discord', 'the webhook ID must be a number', EXPECTED);
  if (!token) throw badDestination('discord', 'the token is missing', EXPECTED);
  const base = baseUrl(options.baseurl, 'discord') ?? API_URL;
  delete options.baseurl;
  return { webhookId, token, apiUrl: base, options };
}

export function discordFromConnection(conn: ResolvedConnection): DiscordConfig {
  const webhookId = (conn.username ?? '').trim();
  if (!webhookId) throw badDestination('discord', `connection ${conn.name} has no webhook ID`);
  const token = connectionSecret(conn, 'discord', 'token');
  return {
    webhookId,
    token,
    apiUrl: baseUrl(conn.url, 'discord') ?? API_URL,
    options: propertyOptions(conn.properties),
  };
}

export function discordPayload(config: DiscordConfig, message: NotificationMessage): Record<string, unknown> {
  const opt = sendOptions(config.options, message.properties);
  const embed: Record<string, unknown> = {
    title: truncate(message.title, 256),
    color: parseInt(severityColor(message).slice(1), 16),
    timestamp: new Date().toISOString(),
  };
  if (message.body.trim()) embed.description = truncate(message.body, 4096);
  if (message.permalink) embed.url = message.permalink;
  if (message.resource) embed.footer = { text: truncate(`${message.resource.type} ${message.resource.name}`, 2048) };
  const out: Record<string, unknown> = { embeds: [embed], allowed_mentions: { parse: [] } };
  const username = opt('username', 'botname');
  if (username) out.username = username;
  const avatar = opt('avatar', 'avatarurl', 'avatar_url');
  if (avatar) out.avatar_url = avatar;
  return out;
}

export const discordSender: Sender<DiscordConfig> = {
  channel: 'discord',
  schemes: ['discord'],
  connectionTypes: ['discord'],
  fromUrl: parseDiscordUrl,
  fromConnection: discordFromConnection,
  describe: (config) => `discord webhook ${config.webhookId}`,
  async send(config, message, ctx) {
    const thread = option(config.options, message.properties, 'thread_id', 'threadid');
    const query = new URLSearchParams({ wait: 'true' });
    if (thread) query.set('thread_id', thread);
    const answer = await request(
      'discord',
      {
        url: `${config.apiUrl}/webhooks/${config.webhookId}/${encodeURIComponent(config.token)}?${query}`,
        json: discordPayload(config, message),
      },
      ctx,
      [config.token],
    );
    const created = (answer.json ?? {}) as { id?: string; channel_id?: string };
    return { response: { id: created.id, channel_id: created.channel_id } };
  },
};
