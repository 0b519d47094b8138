// Mattermost: an incoming webhook, POST {server}/hooks/{token} with a Slack-compatible attachment
// (title linking to the console, the Markdown body — Mattermost renders Markdown — and a colour).
// URL form (shoutrrr):
//   mattermost://[botname@]host[:port]/token[/channel][?icon=&disabletls=yes&baseUrl=]
// `disabletls=yes` (or `scheme=http`) posts over plain HTTP; `baseUrl` replaces https://host[:port].
// A connection has url = the server URL, password = the webhook token, properties channel and botName.
import type { ResolvedConnection } from '../../connections/resolve.js';
import { severityColor } from './content.js';
import {
  badDestination,
  baseUrl,
  connectionSecret,
  connectionServerUrl,
  decode,
  displayUrl,
  flag,
  parseChannelUrl,
  propertyOptions,
  queryOptions,
  request,
  sendOptions,
  type Options,
} from './http.js';
import { truncate } from './markdown.js';
import type { NotificationMessage, Sender } from './sender.js';

const EXPECTED = 'mattermost://[botname@]host[:port]/token[/channel]';

export interface MattermostConfig {
  /** scheme://host[:port][/prefix] */
  serverUrl: string;
  token: string;
  options: Options;
}

export function parseMattermostUrl(raw: string): MattermostConfig {
  const url = parseChannelUrl(raw, 'mattermost', EXPECTED);
  const options = queryOptions(url);
  if (!url.hostname) throw badDestination('mattermost', 'the host is missing', EXPECTED);
  const [token, channel, ...rest] = url.pathname.split('/').filter(Boolean).map(decode);
  if (!token) throw badDestination('mattermost', 'the webhook token is missing', EXPECTED);
  if (rest.length) throw badDestination('mattermost', 'too many path parts', EXPECTED);
  const plain = flag(options.disabletls, false) || options.scheme === 'http';
  const serverUrl = baseUrl(options.baseurl, 'mattermost') ?? `${plain ? 'http' : 'https'}://${url.host}`;
  for (const key of ['baseurl', 'disabletls', 'scheme']) delete options[key];
  if (channel) options.channel = channel;
  if (url.username) options.botname = decode(url.username);
  return { serverUrl, token, options };
}

export function mattermostFromConnection(conn: ResolvedConnection): MattermostConfig {
  const token = connectionSecret(conn, 'mattermost', 'webhook token');
  const serverUrl = connectionServerUrl(conn, 'mattermost');
  return { serverUrl, token, options: propertyOptions(conn.properties) };
}

export function mattermostPayload(config: MattermostConfig, message: NotificationMessage): Record<string, unknown> {
  const opt = sendOptions(config.options, message.properties);
  const attachment: Record<string, unknown> = {
    fallback: truncate(message.title, 300),
    color: severityColor(message),
    title: message.title,
    text: message.body,
  };
  if (message.permalink) attachment.title_link = message.permalink;
  const out: Record<string, unknown> = { attachments: [attachment] };
  const channel = opt('channel');
  if (channel) out.channel = channel;
  const botname = opt('botname', 'username');
  if (botname) out.username = botname;
  const icon = opt('icon', 'icon_url', 'icon_emoji');
  if (icon) out[/^https?:\/\//.test(icon) ? 'icon_url' : 'icon_emoji'] = icon;
  return out;
}

export const mattermostSender: Sender<MattermostConfig> = {
  channel: 'mattermost',
  schemes: ['mattermost'],
  connectionTypes: ['mattermost'],
  fromUrl: parseMattermostUrl,
  fromConnection: mattermostFromConnection,
  describe: (config) =>
    `mattermost ${displayUrl(config.serverUrl)}${config.options.channel ? ` channel ${config.options.channel}` : ''}`,
  async send(config, message, ctx) {
    const answer = await request(
      'mattermost',
      {
        url: `${config.serverUrl}/hooks/${encodeURIComponent(config.token)}`,
        json: mattermostPayload(config, message),
      },
      ctx,
      [config.token],
    );
    return { response: { status: answer.status } };
  },
};
