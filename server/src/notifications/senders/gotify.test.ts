// Gotify destinations: gotify://host[/path]/token, connections, and the message body.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import { gotifyFromConnection, gotifyPayload, gotifySender, parseGotifyUrl } from './gotify.js';

describe('Gotify destinations', () => {
  it('reads host, sub-path and token (the last segment)', () => {
    expect(parseGotifyUrl('gotify://push.example.com:8443/gotify/AzyoeNS.D4iJLVa/?priority=9')).toEqual({
      serverUrl: 'https://push.example.com:8443/gotify',
      token: 'AzyoeNS.D4iJLVa',
      options: { priority: '9' },
    });
    expect(parseGotifyUrl('gotify://127.0.0.1:5/tok?disabletls=yes').serverUrl).toBe('http://127.0.0.1:5');
  });

  it('rejects bad URLs', () => {
    expectBadDestination(() => parseGotifyUrl('gotify://push.example.com/'), /application token is missing/);
    expectBadDestination(() => parseGotifyUrl('gotify:///tok'), /host is missing/);
  });

  it('reads a connection; describes without the token', () => {
    const c = gotifyFromConnection({
      name: 'g',
      type: 'gotify',
      url: 'https://push.example.com',
      username: null,
      password: 'AppToken1',
      certificate: null,
      insecureTls: false,
      properties: {},
    });
    expect(gotifySender.describe(c)).toBe('gotify https://push.example.com');
  });

  it('sends Markdown with a click URL and priority by severity', () => {
    expect(gotifyPayload(parseGotifyUrl('gotify://h/t'), testMessage({ severity: 'warning' }))).toEqual({
      title: 'Check api-health failed',
      message: testMessage().body,
      priority: 5,
      extras: {
        'client::display': { contentType: 'text/markdown' },
        'client::notification': { click: { url: 'https://opsdeck.example.com/health?checkId=c1' } },
      },
    });
    expect(gotifyPayload(parseGotifyUrl('gotify://h/t?priority=9'), testMessage()).priority).toBe(9);
  });
});
