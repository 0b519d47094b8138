// ntfy: POST {server}/{topic} with the Markdown body and the Title, Priority, Tags, Click and Markdown
// headers (non-ASCII header text RFC 2047-encoded, which ntfy decodes). Priority follows the severity
// (critical 5, error and warning 4, info and resolved 3) unless `priority` is given; a tag shows the state.
// Auth: user and password → Basic; a password alone (an access token, tk_…) → Bearer. URL form (shoutrrr):
//   ntfy://[user:password@]host[:port]/topic[?title=&priority=&tags=&click=&icon=&email=&delay=&scheme=http&baseUrl=]
// The host defaults to ntfy.sh; `scheme=http` (or `disabletls=yes`) posts over plain HTTP; `baseUrl`
// replaces https://host[:port]. A connection has url = the server, properties.topic, username, password.
import type { ResolvedConnection } from '../../connections/resolve.js';
import {
  badDestination,
  baseUrl,
  basicAuth,
  decode,
  displayUrl,
  flag,
  headerValue,
  list,
  option,
  parseChannelUrl,
  propertyOptions,
  queryOptions,
  request,
  sendOptions,
  type Options,
} from './http.js';
import { truncate } from './markdown.js';
import type { NotificationMessage, Sender } from './sender.js';

const EXPECTED = 'ntfy://[user:password@]host/topic';
const PRIORITIES: Record<string, string> = { min: '1', low: '2', default: '3', high: '4', max: '5', urgent: '5' };

export interface NtfyConfig {
  serverUrl: string;
  topic: string;
  username?: string;
  password?: string;
  options: Options;
}

export function parseNtfyUrl(raw: string): NtfyConfig {
  const url = parseChannelUrl(raw, 'ntfy', EXPECTED);
  const options = queryOptions(url);
  const topic = decode(url.pathname.replace(/^\/+|\/+$/g, ''));
  if (!topic) throw badDestination('ntfy', 'the topic is missing', EXPECTED);
  if (topic.includes('/')) throw badDestination('ntfy', 'the topic must be one path segment', EXPECTED);
  const scheme = options.scheme === 'http' || flag(options.disabletls, false) ? 'http' : 'https';
  if (options.scheme && !['http', 'https'].includes(options.scheme))
    throw badDestination('ntfy', `scheme must be http or https, not ${options.scheme}`);
  const serverUrl = baseUrl(options.baseurl, 'ntfy') ?? `${scheme}://${url.host || 'ntfy.sh'}`;
  for (const key of ['baseurl', 'scheme', 'disabletls']) delete options[key];
  return {
    serverUrl,
    topic,
    username: decode(url.username) || undefined,
    password: decode(url.password) || undefined,
    options,
  };
}

export function ntfyFromConnection(conn: ResolvedConnection): NtfyConfig {
  const options = propertyOptions(conn.properties);
  const topic = options.topic;
  if (!topic) throw badDestination('ntfy', `connection ${conn.name} has no topic`);
  delete options.topic;
  return {
    serverUrl: baseUrl(conn.url || 'https://ntfy.sh', 'ntfy')!,
    topic,
    username: conn.username || undefined,
    password: conn.password || undefined,
    options,
  };
}

function priorityOf(config: NtfyConfig, message: NotificationMessage): string {
  const given = option(config.options, message.properties, 'priority');
  if (given) return PRIORITIES[given.toLowerCase()] ?? given;
  if (message.state === 'resolved') return '3';
  return { critical: '5', error: '4', warning: '4', info: '3' }[message.severity];
}

/** The headers ntfy reads for a message. */
export function ntfyHeaders(config: NtfyConfig, message: NotificationMessage): Record<string, string> {
  const opt = sendOptions(config.options, message.properties);
  const stateTag =
    message.state === 'resolved'
      ? 'white_check_mark'
      : { critical: 'rotating_light', error: 'x', warning: 'warning', info: 'information_source' }[message.severity];
  const headers: Record<string, string> = {
    'content-type': 'text/markdown; charset=utf-8',
    title: headerValue(truncate(opt('title') ?? message.title, 250)),
    priority: priorityOf(config, message),
    tags: headerValue([stateTag, ...list(opt('tags'))].join(',')),
    markdown: 'yes',
  };
  const click = opt('click') ?? message.permalink;
  if (click) headers.click = click;
  for (const key of ['icon', 'email', 'delay', 'attach', 'filename', 'actions']) {
    const value = opt(key);
    if (value) headers[key] = headerValue(value);
  }
  if (config.username && config.password) headers.authorization = basicAuth(config.username, config.password);
  else if (config.password) headers.authorization = `Bearer ${config.password}`;
  return headers;
}

export const ntfySender: Sender<NtfyConfig> = {
  channel: 'ntfy',
  schemes: ['ntfy'],
  connectionTypes: ['ntfy'],
  fromUrl: parseNtfyUrl,
  fromConnection: ntfyFromConnection,
  describe: (config) => `ntfy ${displayUrl(config.serverUrl)}/${config.topic}`,
  async send(config, message, ctx) {
    const answer = await request(
      'ntfy',
      {
        url: `${config.serverUrl}/${encodeURIComponent(config.topic)}`,
        headers: ntfyHeaders(config, message),
        body: message.body.trim() || message.title,
      },
      ctx,
      [config.password],
    );
    const published = (answer.json ?? {}) as { id?: string; time?: number };
    return { response: { id: published.id, time: published.time } };
  },
};
