// Telegram destinations: telegram://token@telegram?chats=…, connections, and the text per parse mode.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import { parseTelegramUrl, telegramFromConnection, telegramSender, telegramText } from './telegram.js';

describe('Telegram destinations', () => {
  it('reads the bot token and chats', () => {
    expect(
      parseTelegramUrl(
        'telegram://110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw@telegram?chats=@ops,-100123&preview=no',
      ),
    ).toEqual({
      token: '110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
      chats: ['@ops', '-100123'],
      apiUrl: 'https://api.telegram.org',
      options: { preview: 'no' },
    });
    expect(parseTelegramUrl('telegram://1:a@telegram?channels=5&baseUrl=http://127.0.0.1:2').apiUrl).toBe(
      'http://127.0.0.1:2',
    );
  });

  it('rejects bad URLs', () => {
    expectBadDestination(() => parseTelegramUrl('telegram://abc@telegram?chats=1'), /<bot id>:<secret>/);
    expectBadDestination(() => parseTelegramUrl('telegram://1:abc@telegram'), /no chats given/);
  });

  it('reads a connection; describes the chats without the token', () => {
    const c = telegramFromConnection({
      name: 't',
      type: 'telegram',
      url: null,
      username: null,
      password: '42:SECRETxyz',
      certificate: null,
      insecureTls: false,
      properties: { chats: '1, 2' },
    });
    expect(c.chats).toEqual(['1', '2']);
    expect(telegramSender.describe(c)).toBe('telegram chats 1, 2');
  });

  it('writes HTML by default, MarkdownV2 escaped, or plain', () => {
    const m = testMessage({ title: 'a<b & c.d' });
    expect(telegramText(m, 'HTML')).toEqual({
      parse_mode: 'HTML',
      text:
        '<b>a&lt;b &amp; c.d</b>\n\n<b>api-health</b> is <i>down</i>: <code>503</code> from ' +
        '<a href="https://api.example.com/health">the endpoint</a>\n\n' +
        '<a href="https://opsdeck.example.com/health?checkId=c1">Open in Opsdeck</a>',
    });
    expect(telegramText(m, 'MarkdownV2').text).toBe(
      '*a<b & c\\.d*\n\n*api\\-health* is _down_: `503` from [the endpoint](https://api.example.com/health)\n\n' +
        '[Open in Opsdeck](https://opsdeck.example.com/health?checkId=c1)',
    );
    expect(telegramText(m, undefined).parse_mode).toBeUndefined();
  });
});
