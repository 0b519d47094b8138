// Teams destinations: shoutrrr teams:// forms and webhook URLs, and the Adaptive Card message.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import { parseTeamsUrl, teamsPayload, teamsSender } from './teams.js';

const G = '11111111-2222-4333-8444-555555555555';
const T = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const A = '0123456789abcdef0123456789abcdef';
const O = '99999999-8888-4777-8666-555555555555';

describe('Teams destinations', () => {
  it('builds the webhook URL from the teams:// parts and host', () => {
    expect(parseTeamsUrl(`teams://${G}@${T}/${A}/${O}/V2extra?host=contoso.webhook.office.com`).webhookUrl).toBe(
      `https://contoso.webhook.office.com/webhookb2/${G}@${T}/IncomingWebhook/${A}/${O}/V2extra`,
    );
    expect(parseTeamsUrl(`teams://${G}@${T}/${A}/${O}`).webhookUrl).toBe(
      `https://outlook.office.com/webhook/${G}@${T}/IncomingWebhook/${A}/${O}`,
    );
    expect(
      parseTeamsUrl(`teams://${G}@${T}/${A}/${O}?host=x.webhook.office.com&baseUrl=http://127.0.0.1:7`).webhookUrl,
    ).toBe(`http://127.0.0.1:7/webhookb2/${G}@${T}/IncomingWebhook/${A}/${O}`);
  });

  it('takes Workflows and webhook https URLs as they are', () => {
    const workflow =
      'https://prod-01.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=SECRET';
    expect(parseTeamsUrl(workflow).webhookUrl).toBe(workflow.replace(':443', ''));
  });

  it('rejects bad URLs saying which part is wrong', () => {
    expectBadDestination(() => parseTeamsUrl(`teams://nope@${T}/${A}/${O}`), /group part must be a UUID/);
    expectBadDestination(() => parseTeamsUrl(`teams://${G}@${T}/short/${O}`), /altId part/);
    expectBadDestination(() => parseTeamsUrl(`teams://${G}@${T}/${A}`), /groupOwner part must be a UUID/);
    expectBadDestination(() => parseTeamsUrl('msteams://x'), /unknown scheme/);
  });

  it('describes by host only', () => {
    const d = teamsSender.describe(
      parseTeamsUrl('https://prod-01.westeurope.logic.azure.com/workflows/abc?sig=SECRET'),
    );
    expect(d).toBe('teams webhook (prod-01.westeurope.logic.azure.com)');
  });

  it('sends an Adaptive Card in a message with an OpenUrl action', () => {
    const p = teamsPayload(testMessage()) as {
      type: string;
      attachments: { contentType: string; content: Record<string, unknown> }[];
    };
    expect(p.type).toBe('message');
    expect(p.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(p.attachments[0].content).toMatchObject({
      type: 'AdaptiveCard',
      version: '1.4',
      body: [
        { type: 'TextBlock', text: 'Check api-health failed', weight: 'Bolder', color: 'Attention', wrap: true },
        {
          type: 'TextBlock',
          text: '**api-health** is _down_: 503 from [the endpoint](https://api.example.com/health)',
          wrap: true,
        },
      ],
      actions: [
        { type: 'Action.OpenUrl', title: 'Open in Opsdeck', url: 'https://opsdeck.example.com/health?checkId=c1' },
      ],
    });
  });
});
