// Google Chat destinations: googlechat:// and https webhook URLs; text and card messages.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import { googleChatPayload, googleChatSender, parseGoogleChatUrl } from './googlechat.js';

const URL_ = 'googlechat://chat.googleapis.com/v1/spaces/AAA/messages?key=K123&token=T456';

describe('Google Chat destinations', () => {
  it('turns googlechat:// into the https webhook, passing other parameters on', () => {
    expect(parseGoogleChatUrl(`${URL_}&threadKey=x&format=card`)).toEqual({
      webhookUrl: 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=K123&token=T456&threadKey=x',
      options: { format: 'card' },
    });
    expect(parseGoogleChatUrl(`${URL_}&baseUrl=http://127.0.0.1:8`).webhookUrl).toBe(
      'http://127.0.0.1:8/v1/spaces/AAA/messages?key=K123&token=T456',
    );
  });

  it('rejects URLs without key, token or space path', () => {
    expectBadDestination(
      () => parseGoogleChatUrl('googlechat://chat.googleapis.com/v1/spaces/A/messages?token=t'),
      /key parameter/,
    );
    expectBadDestination(
      () => parseGoogleChatUrl('googlechat://chat.googleapis.com/v1/spaces/A/messages?key=k'),
      /token parameter/,
    );
    expectBadDestination(() => parseGoogleChatUrl('googlechat://chat.googleapis.com/x?key=k&token=t'), /\/v1\/spaces/);
  });

  it('describes the space, never key or token', () => {
    expect(googleChatSender.describe(parseGoogleChatUrl(URL_))).toBe('googlechat space AAA (chat.googleapis.com)');
  });

  it('writes text by default and cardsV2 with format=card', () => {
    expect(googleChatPayload(parseGoogleChatUrl(URL_), testMessage())).toEqual({
      text:
        '*Check api-health failed*\n\n*api-health* is _down_: `503` from <https://api.example.com/health|the endpoint>' +
        '\n\n<https://opsdeck.example.com/health?checkId=c1|Open in Opsdeck>',
    });
    const card = googleChatPayload(parseGoogleChatUrl(`${URL_}&format=card`), testMessage());
    expect(card).toMatchObject({
      cardsV2: [
        {
          card: {
            header: { title: 'Check api-health failed', subtitle: 'check api-health' },
            sections: [
              {
                widgets: [
                  {
                    textParagraph: {
                      text: '<b>api-health</b> is <i>down</i>: 503 from <a href="https://api.example.com/health">the endpoint</a>',
                    },
                  },
                  {
                    buttonList: {
                      buttons: [{ text: 'Open in Opsdeck', onClick: { openLink: { url: testMessage().permalink } } }],
                    },
                  },
                ],
              },
            ],
          },
        },
      ],
    });
  });
});
