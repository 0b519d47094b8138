// Mattermost destinations: mattermost://[bot@]host/token[/channel] and connections.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import { mattermostFromConnection, mattermostPayload, mattermostSender, parseMattermostUrl } from './mattermost.js';

describe('Mattermost destinations', () => {
  it('reads host, token, channel and bot name', () => {
    expect(parseMattermostUrl('mattermost://Ops@chat.example.com:8065/tok123/town-square?icon=:bell:')).toEqual({
      serverUrl: 'https://chat.example.com:8065',
      token: 'tok123',
      options: { icon: ':bell:', channel: 'town-square', botname: 'Ops' },
    });
    expect(parseMattermostUrl('mattermost://127.0.0.1:9/tok?disabletls=yes').serverUrl).toBe('http://127.0.0.1:9');
  });

  it('rejects bad URLs', () => {
    expectBadDestination(() => parseMattermostUrl('mattermost://chat.example.com'), /webhook token is missing/);
    expectBadDestination(() => parseMattermostUrl('mattermost:///tok'), /host is missing/);
    expectBadDestination(() => parseMattermostUrl('mattermost://h/a/b/c'), /too many path parts/);
  });

  it('reads a connection and describes it without the token', () => {
    const c = mattermostFromConnection({
      name: 'mm',
      type: 'mattermost',
      url: 'https://chat.example.com/',
      username: null,
      password: 'hook-secret',
      certificate: null,
      insecureTls: false,
      properties: { channel: 'alerts', botName: 'Opsdeck' },
    });
    expect(c.serverUrl).toBe('https://chat.example.com');
    expect(mattermostSender.describe(c)).toBe('mattermost https://chat.example.com channel alerts');
    expect(mattermostPayload(c, testMessage())).toMatchObject({
      channel: 'alerts',
      username: 'Opsdeck',
      attachments: [{ title: 'Check api-health failed', title_link: 'https://opsdeck.example.com/health?checkId=c1' }],
    });
  });
});
