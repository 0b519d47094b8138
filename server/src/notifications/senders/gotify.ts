// Gotify: POST {server}/message?token={app token} with {title, message, priority, extras}: the body is
// shown as Markdown (client::display) and a tap opens the console (client::notification click).
// Priority follows the severity (critical 8, error 7, warning 5, info and resolved 3) unless given.
// URL form (shoutrrr):
//   gotify://host[:port][/path]/token[?priority=&title=&disabletls=yes&baseUrl=]
// `disabletls=yes` posts over plain HTTP; `baseUrl` replaces https://host[:port][/path].
// A connection has url = the server URL and password = the application token.
import type { ResolvedConnection } from '../../connections/resolve.js';
import {
  badDestination,
  baseUrl,
  connectionSecret,
  connectionServerUrl,
  decode,
  displayUrl,
  flag,
  option,
  parseChannelUrl,
  propertyOptions,
  queryOptions,
  request,
  type Options,
} from './http.js';
import type { NotificationMessage, Sender } from './sender.js';

const EXPECTED = 'gotify://host[:port][/path]/token';

export interface GotifyConfig {
  serverUrl: string;
  token: string;
  options: Options;
}

export function parseGotifyUrl(raw: string): GotifyConfig {
  const url = parseChannelUrl(raw, 'gotify', EXPECTED);
  if (!url.hostname) throw badDestination('gotify', 'the host is missing', EXPECTED);
  const segments = url.pathname.split('/').filter(Boolean);
  const token = decode(segments.pop() ?? '');
  if (!token) throw badDestination('gotify', 'the application token is missing', EXPECTED);
  const options = queryOptions(url);
  const scheme = flag(options.disabletls, false) ? 'http' : 'https';
  const prefix = segments.length ? `/${segments.join('/')}` : '';
  const serverUrl = baseUrl(options.baseurl, 'gotify') ?? `${scheme}://${url.host}${prefix}`;
  for (const key of ['baseurl', 'disabletls']) delete options[key];
  return { serverUrl, token, options };
}

export function gotifyFromConnection(conn: ResolvedConnection): GotifyConfig {
  const token = connectionSecret(conn, 'gotify', 'application token');
  const serverUrl = connectionServerUrl(conn, 'gotify');
  return { serverUrl, token, options: propertyOptions(conn.properties) };
}

export function gotifyPayload(config: GotifyConfig, message: NotificationMessage): Record<string, unknown> {
  const given = option(config.options, message.properties, 'priority');
  const priority =
    given !== undefined && Number.isFinite(Number(given))
      ? Number(given)
      : message.state === 'resolved'
        ? 3
        : { critical: 8, error: 7, warning: 5, info: 3 }[message.severity];
  const extras: Record<string, unknown> = { 'client::display': { contentType: 'text/markdown' } };
  if (message.permalink) extras['client::notification'] = { click: { url: message.permalink } };
  return {
    title: option(config.options, message.properties, 'title') ?? message.title,
    message: message.body.trim() || message.title,
    priority,
    extras,
  };
}

export const gotifySender: Sender<GotifyConfig> = {
  channel: 'gotify',
  schemes: ['gotify'],
  connectionTypes: ['gotify'],
  fromUrl: parseGotifyUrl,
  fromConnection: gotifyFromConnection,
  describe: (config) => `gotify ${displayUrl(config.serverUrl)}`,
  async send(config, message, ctx) {
    const answer = await request(
      'gotify',
      {
        url: `${config.serverUrl}/message?token=${encodeURIComponent(config.token)}`,
        json: gotifyPayload(config, message),
      },
      ctx,
      [config.token],
    );
    const created = (answer.json ?? {}) as { id?: number; appid?: number };
    return { response: { id: created.id, appid: created.appid } };
  },
};
