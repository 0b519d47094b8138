// Telegram: the Bot API's sendMessage, once per chat: POST {api}/bot{token}/sendMessage with
// {chat_id, text, parse_mode}. The text is the title in bold, the body and a link, in HTML by default
// (only <, > and & escaped) or MarkdownV2 (`parsemode=MarkdownV2`, every reserved character escaped),
// or plain (`parsemode=None`). Longer than Telegram's 4096 characters → cut, as plain text.
// URL form (shoutrrr):
//   telegram://{bot id}:{secret}@telegram?chats=-1001234,@channel[&parsemode=&notification=no&preview=no&baseUrl=]
// `baseUrl` replaces https://api.telegram.org; a connection has password = the bot token,
// properties.chats and url = the API URL.
import type { ResolvedConnection } from '../../connections/resolve.js';
import { LINK_LABEL } from './content.js';
import {
  badDestination,
  baseUrl,
  decode,
  flag,
  list,
  parseChannelUrl,
  propertyOptions,
  queryOptions,
  request,
  sendOptions,
  type Options,
} from './http.js';
import {
  escapeHtml,
  escapeTelegramMarkdownV2,
  markdownToTelegramHtml,
  markdownToTelegramMarkdownV2,
  markdownToText,
  truncate,
} from './markdown.js';
import { SenderError, type NotificationMessage, type Sender, type SendResult } from './sender.js';

const EXPECTED = 'telegram://botid:secret@telegram?chats=chat1,chat2';
const API_URL = 'https://api.telegram.org';
const TOKEN = /^\d+:[A-Za-z0-9_-]+$/;

export interface TelegramConfig {
  token: string;
  chats: string[];
  apiUrl: string;
  options: Options;
}

export function parseTelegramUrl(raw: string): TelegramConfig {
  const url = parseChannelUrl(raw, 'telegram', EXPECTED);
  const token = `${decode(url.username)}:${decode(url.password)}`;
  if (!TOKEN.test(token)) throw badDestination('telegram', 'the bot token must be <bot id>:<secret>', EXPECTED);
  const options = queryOptions(url);
  const chats = list(options.chats ?? options.channels);
  if (!chats.length) throw badDestination('telegram', 'no chats given (?chats=…)', EXPECTED);
  const apiUrl = baseUrl(options.baseurl, 'telegram') ?? API_URL;
  for (const key of ['baseurl', 'chats', 'channels']) delete options[key];
  return { token, chats, apiUrl, options };
}

export function telegramFromConnection(conn: ResolvedConnection): TelegramConfig {
  const token = (conn.password ?? '').trim();
  if (!TOKEN.test(token))
    throw badDestination('telegram', `connection ${conn.name}: the bot token must be <bot id>:<secret>`);
  const options = propertyOptions(conn.properties);
  const chats = list(options.chats);
  if (!chats.length) throw badDestination('telegram', `connection ${conn.name} has no chat IDs`);
  delete options.chats;
  return { token, chats, apiUrl: baseUrl(conn.url, 'telegram') ?? API_URL, options };
}

type ParseMode = 'HTML' | 'MarkdownV2' | undefined;

/** The sendMessage text and parse_mode for the message. */
export function telegramText(message: NotificationMessage, mode: ParseMode): { text: string; parse_mode?: string } {
  // Cut the Markdown first, so that markup is never cut in half; escaping can still grow it.
  const body = truncate(message.body.trim(), 3500);
  let text: string;
  if (mode === 'HTML') {
    text = [`<b>${escapeHtml(message.title)}</b>`, markdownToTelegramHtml(body)].filter(Boolean).join('\n\n');
    if (message.permalink) text += `\n\n<a href="${escapeHtml(message.permalink)}">${LINK_LABEL}</a>`;
  } else if (mode === 'MarkdownV2') {
    text = [`*${escapeTelegramMarkdownV2(message.title)}*`, markdownToTelegramMarkdownV2(body)]
      .filter(Boolean)
      .join('\n\n');
    if (message.permalink)
      text += `\n\n[${escapeTelegramMarkdownV2(LINK_LABEL)}](${message.permalink.replace(/[)\\]/g, '\\$&')})`;
  } else {
    text = [message.title, markdownToText(body), message.permalink ?? ''].filter(Boolean).join('\n\n');
  }
  if (text.length <= 4096) return mode ? { text, parse_mode: mode } : { text };
  return { text: truncate([message.title, markdownToText(body), message.permalink ?? ''].join('\n\n'), 4096) };
}

function parseMode(value: string | undefined): ParseMode {
  const v = (value ?? 'html').toLowerCase();
  if (v === 'html') return 'HTML';
  if (v === 'markdownv2' || v === 'markdown') return 'MarkdownV2';
  if (v === 'none' || v === 'text') return undefined;
  throw badDestination('telegram', `parsemode must be HTML, MarkdownV2 or None, not ${value}`);
}

export const telegramSender: Sender<TelegramConfig> = {
  channel: 'telegram',
  schemes: ['telegram'],
  connectionTypes: ['telegram'],
  fromUrl: parseTelegramUrl,
  fromConnection: telegramFromConnection,
  describe: (config) => `telegram chats ${config.chats.join(', ')}`,
  async send(config, message, ctx): Promise<SendResult> {
    const opt = sendOptions(config.options, message.properties);
    const content = telegramText(message, parseMode(opt('parsemode', 'parse_mode')));
    const sent: { chat: string; message_id?: number }[] = [];
    const failures: SenderError[] = [];
    // Every chat gets its try; one chat's failure does not keep the message from the others.
    for (const chat of config.chats) {
      try {
        const answer = await request(
          'telegram',
          {
            url: `${config.apiUrl}/bot${config.token}/sendMessage`,
            json: {
              chat_id: chat,
              ...content,
              disable_notification: !flag(opt('notification'), true),
              link_preview_options: { is_disabled: !flag(opt('preview'), true) },
            },
          },
          ctx,
          [config.token],
        );
        const result = (answer.json ?? {}) as { ok?: boolean; description?: string; result?: { message_id?: number } };
        if (result.ok === false) throw new SenderError(`telegram: ${result.description ?? 'not ok'}`, false);
        sent.push({ chat, message_id: result.result?.message_id });
      } catch (e) {
        const err = e instanceof SenderError ? e : new SenderError(`telegram: ${String(e)}`);
        failures.push(new SenderError(err.message.replace(/^telegram:/, `telegram chat ${chat}:`), err.retryable));
      }
    }
    if (failures.length)
      throw new SenderError(
        failures.map((f) => f.message).join('; ') +
          (sent.length ? ` (sent to ${sent.map((s) => s.chat).join(', ')})` : ''),
        failures.some((f) => f.retryable),
      );
    return { response: { sent } };
  },
};
