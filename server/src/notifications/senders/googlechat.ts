// Google Chat: a space's incoming webhook. By default a text message (Chat's *bold* _italic_ <url|text>
// markup: the title, the body and a link); `format=card` sends a cardsV2 card (header, paragraph, a
// button). URL forms:
//   googlechat://chat.googleapis.com/v1/spaces/SPACE/messages?key=KEY&token=TOKEN[&format=card&baseUrl=]
//   https://chat.googleapis.com/v1/spaces/SPACE/messages?key=KEY&token=TOKEN
// Other query parameters (threadKey, messageReplyOption) are passed on to Google. `baseUrl` replaces
// https://chat.googleapis.com; a connection's password is the webhook URL.
import type { ResolvedConnection } from '../../connections/resolve.js';
import { LINK_LABEL } from './content.js';
import {
  badDestination,
  baseUrl,
  connectionSecret,
  option,
  parseUrl,
  queryOptions,
  request,
  type Options,
} from './http.js';
import { escapeHtml, markdownToGoogleChat, markdownToHtml, truncate } from './markdown.js';
import type { NotificationMessage, Sender } from './sender.js';

const EXPECTED = 'googlechat://chat.googleapis.com/v1/spaces/SPACE/messages?key=KEY&token=TOKEN';
const OWN_OPTIONS = ['format', 'baseurl'];

export interface GoogleChatConfig {
  /** The webhook URL, key and token included. */
  webhookUrl: string;
  options: Options;
}

export function parseGoogleChatUrl(raw: string): GoogleChatConfig {
  const url = parseUrl(raw, 'googlechat', EXPECTED);
  if (!['googlechat:', 'https:', 'http:'].includes(url.protocol))
    throw badDestination('googlechat', `unknown scheme ${url.protocol}`, EXPECTED);
  if (!url.hostname) throw badDestination('googlechat', 'the host is missing', EXPECTED);
  if (!url.searchParams.get('key')) throw badDestination('googlechat', 'the key parameter is missing', EXPECTED);
  if (!url.searchParams.get('token')) throw badDestination('googlechat', 'the token parameter is missing', EXPECTED);
  if (!/\/spaces\/[^/]+\/messages\/?$/.test(url.pathname))
    throw badDestination('googlechat', 'the path must be /v1/spaces/SPACE/messages', EXPECTED);
  const options = queryOptions(url);
  const base =
    baseUrl(options.baseurl, 'googlechat') ??
    (url.protocol === 'googlechat:' ? `https://${url.host}` : `${url.protocol}//${url.host}`);
  const forwarded = new URLSearchParams();
  for (const [key, value] of url.searchParams)
    if (!OWN_OPTIONS.includes(key.toLowerCase())) forwarded.append(key, value);
  return { webhookUrl: `${base}${url.pathname}?${forwarded}`, options: { format: options.format ?? '' } };
}

export function googleChatFromConnection(conn: ResolvedConnection): GoogleChatConfig {
  const secret = connectionSecret(conn, 'googlechat', 'webhook URL');
  return parseGoogleChatUrl(secret);
}

export function googleChatPayload(config: GoogleChatConfig, message: NotificationMessage): Record<string, unknown> {
  if ((option(config.options, message.properties, 'format') ?? '').toLowerCase() !== 'card') {
    const parts = [`*${message.title.replace(/\*/g, '')}*`];
    const body = markdownToGoogleChat(message.body).trim();
    if (body) parts.push(body);
    if (message.permalink) parts.push(`<${message.permalink}|${LINK_LABEL}>`);
    return { text: truncate(parts.join('\n\n'), 4000) };
  }
  // Card text paragraphs take a small HTML subset (b, i, s, a, br); block tags become line breaks.
  const html = markdownToHtml(message.body)
    .replace(/<(\/?)strong>/g, '<$1b>')
    .replace(/<(\/?)em>/g, '<$1i>')
    .replace(/<(\/?)del>/g, '<$1s>')
    .replace(/<\/(p|h\d|li|blockquote|pre)>\s*/g, '<br>')
    .replace(/<(?!\/?(b|i|s|a|br)\b)[^>]*>/g, '')
    .replace(/(<br>\s*)+$/, '');
  const widgets: unknown[] = [];
  if (html) widgets.push({ textParagraph: { text: html } });
  if (message.permalink)
    widgets.push({
      buttonList: { buttons: [{ text: LINK_LABEL, onClick: { openLink: { url: message.permalink } } }] },
    });
  return {
    cardsV2: [
      {
        cardId: 'opsdeck-notification',
        card: {
          header: {
            title: escapeHtml(truncate(message.title, 200)),
            subtitle: message.resource ? `${message.resource.type} ${message.resource.name}` : undefined,
          },
          sections: [{ widgets }],
        },
      },
    ],
  };
}

export const googleChatSender: Sender<GoogleChatConfig> = {
  channel: 'googlechat',
  schemes: ['googlechat'],
  connectionTypes: ['googlechat'],
  fromUrl: parseGoogleChatUrl,
  fromConnection: googleChatFromConnection,
  describe(config) {
    const url = new URL(config.webhookUrl);
    const space = /\/spaces\/([^/]+)/.exec(url.pathname)?.[1] ?? '?';
    return `googlechat space ${space} (${url.host})`;
  },
  async send(config, message, ctx) {
    const url = new URL(config.webhookUrl);
    const answer = await request(
      'googlechat',
      {
        url: config.webhookUrl,
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        json: googleChatPayload(config, message),
      },
      ctx,
      [url.searchParams.get('key'), url.searchParams.get('token')],
    );
    const created = (answer.json ?? {}) as { name?: string; thread?: { name?: string } };
    return { response: { name: created.name, thread: created.thread?.name } };
  },
};
