// Slack destinations: bot token and webhook URL forms, connections, and the Block Kit message.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import { parseSlackUrl, slackBlocks, slackFromConnection, slackSender } from './slack.js';

const BOT = 'xoxb:123456789012-1234567890123-4mt0t4l1YL3g1T5L4cK70k3N';
const HOOK = 'WNA3PBYV6-F20DUQND3RQ-Webc4MAvoacrpPakR8phF0zi';
const conn = (password: string, properties: Record<string, string> = {}, url: string | null = null) => ({
  name: 'slack-ops',
  type: 'slack',
  url,
  username: null,
  password,
  certificate: null,
  insecureTls: false,
  properties,
});

describe('Slack destinations', () => {
  it('reads a bot token and channel, with options and a baseUrl', () => {
    expect(parseSlackUrl(`slack://${BOT}@C001CH4NN3L?botname=Ops&baseUrl=http://127.0.0.1:9/api`)).toEqual({
      kind: 'bot',
      token: 'xoxb-123456789012-1234567890123-4mt0t4l1YL3g1T5L4cK70k3N',
      channel: 'C001CH4NN3L',
      apiUrl: 'http://127.0.0.1:9/api',
      options: { botname: 'Ops' },
    });
    expect(parseSlackUrl(`slack://${BOT}@C001`)).toMatchObject({ apiUrl: 'https://slack.com/api' });
  });

  it('reads the webhook forms: hook token, old three-part form, https URL', () => {
    const url = 'https://hooks.slack.com/services/WNA3PBYV6/F20DUQND3RQ/Webc4MAvoacrpPakR8phF0zi';
    expect(parseSlackUrl(`slack://hook:${HOOK}@webhook`)).toEqual({ kind: 'webhook', webhookUrl: url, options: {} });
    expect(parseSlackUrl('slack://Bot@WNA3PBYV6/F20DUQND3RQ/Webc4MAvoacrpPakR8phF0zi')).toEqual({
      kind: 'webhook',
      webhookUrl: url,
      options: { botname: 'Bot' },
    });
    expect(parseSlackUrl(url)).toEqual({ kind: 'webhook', webhookUrl: url, options: {} });
    expect(parseSlackUrl(`slack://hook:${HOOK}@webhook?baseUrl=http://127.0.0.1:5`)).toMatchObject({
      webhookUrl: 'http://127.0.0.1:5/services/WNA3PBYV6/F20DUQND3RQ/Webc4MAvoacrpPakR8phF0zi',
    });
  });

  it('rejects bad URLs saying what is wrong', () => {
    expectBadDestination(() => parseSlackUrl('slack://'), /token is missing/);
    expectBadDestination(() => parseSlackUrl('slack://abc:def@C1'), /must start with xoxb, xoxp or hook/);
    expectBadDestination(() => parseSlackUrl('slack://hook:short@webhook'), /webhook token is not valid/);
    expectBadDestination(() => parseSlackUrl(`slack://${BOT}@`), /nothing after "@"/);
    expectBadDestination(() => parseSlackUrl('https://hooks.slack.com/other'), /path \/services/);
    expectBadDestination(() => parseSlackUrl(`slack://${BOT}@C1?baseUrl=ftp://x`), /baseUrl must be http/);
    expectBadDestination(() => parseSlackUrl('not a url'), /slack: not a valid URL/);
  });

  it('reads connections: bot token + channel + API URL, or a webhook URL', () => {
    expect(slackFromConnection(conn('xoxb-1-2-abc', { channel: 'C9' }, 'http://127.0.0.1:1/api'))).toEqual({
      kind: 'bot',
      token: 'xoxb-1-2-abc',
      channel: 'C9',
      apiUrl: 'http://127.0.0.1:1/api',
      options: { channel: 'C9' },
    });
    expect(slackFromConnection(conn('https://hooks.slack.com/services/A/B/C'))).toMatchObject({ kind: 'webhook' });
    expectBadDestination(() => slackFromConnection(conn('xoxb-1-2-abc')), /no channel/);
    expectBadDestination(() => slackFromConnection(conn('')), /no bot token or webhook URL/);
  });

  it('describes without the token', () => {
    const bot = slackSender.describe(parseSlackUrl(`slack://${BOT}@C001`));
    expect(bot).toBe('slack channel C001 (bot token)');
    const hook = slackSender.describe(parseSlackUrl(`slack://hook:${HOOK}@webhook`));
    expect(hook).toBe('slack incoming webhook (hooks.slack.com)');
    expect(hook + bot).not.toMatch(/Webc4MAvoacrpPakR8phF0zi|4mt0t4l1YL3g1T5L4cK70k3N/);
  });

  it('builds header, mrkdwn section and link button blocks', () => {
    expect(slackBlocks(testMessage())).toEqual([
      { type: 'header', text: { type: 'plain_text', text: 'Check api-health failed', emoji: true } },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: '*api-health* is _down_: `503` from <https://api.example.com/health|the endpoint>',
        },
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open in Opsdeck' },
            url: 'https://opsdeck.example.com/health?checkId=c1',
            action_id: 'open',
          },
        ],
      },
    ]);
  });
});
