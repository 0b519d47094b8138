// The channel registry: URL schemes, bare webhook URLs by host, connection types and aliases.
import { describe, expect, it } from 'vitest';
import { expectBadDestination } from '../../../test/helpers/notification-message.js';
import { destinationForUrl, SENDERS, senderForConnection, senderForUrl } from './index.js';

describe('Notification channel registry', () => {
  it('finds the channel by scheme', () => {
    const cases: [string, string][] = [
      ['smtp://h/?from=a@x&to=b@x', 'email'],
      ['slack://xoxb:1-2-3@C1', 'slack'],
      ['teams://a@b/c/d', 'teams'],
      ['discord://t@1', 'discord'],
      ['mattermost://h/t', 'mattermost'],
      ['googlechat://chat.googleapis.com/v1/spaces/A/messages?key=k&token=t', 'googlechat'],
      ['ntfy://ntfy.sh/t', 'ntfy'],
      ['gotify://h/t', 'gotify'],
      ['telegram://1:a@telegram?chats=1', 'telegram'],
      ['pagerduty:///k', 'pagerduty'],
      ['opsgenie:///k', 'opsgenie'],
      ['generic+https://h/p', 'generic'],
      ['generic+http://h/p', 'generic'],
      ['GENERIC://h/p', 'generic'],
    ];
    for (const [url, channel] of cases) expect(senderForUrl(url).channel, url).toBe(channel);
  });

  it('finds the channel of a bare https webhook URL by its host', () => {
    expect(senderForUrl('https://hooks.slack.com/services/A/B/C').channel).toBe('slack');
    expect(senderForUrl('https://contoso.webhook.office.com/webhookb2/x').channel).toBe('teams');
    expect(senderForUrl('https://prod-1.westus.logic.azure.com/workflows/x').channel).toBe('teams');
    expect(senderForUrl('https://discord.com/api/webhooks/1/t').channel).toBe('discord');
    expect(senderForUrl('https://chat.googleapis.com/v1/spaces/A/messages').channel).toBe('googlechat');
    expectBadDestination(() => senderForUrl('https://example.com/hook'), /not a known webhook host.*generic\+https/);
    expectBadDestination(() => senderForUrl('pigeon://coop'), /no notification channel reads pigeon/);
    expectBadDestination(() => senderForUrl('slack'), /scheme:\/\//);
  });

  it('finds the channel of a connection by type or alias', () => {
    expect(senderForConnection({ name: 'a', type: 'smtp' }).channel).toBe('email');
    expect(senderForConnection({ name: 'a', type: 'Webhook' }).channel).toBe('generic');
    expect(senderForConnection({ name: 'a', type: 'generic_webhook' }).channel).toBe('generic');
    expectBadDestination(() => senderForConnection({ name: 'db', type: 'postgres' }), /not a notification channel/);
  });

  it('serves every notification connection type', () => {
    const served = SENDERS.flatMap((s) => s.connectionTypes);
    for (const t of [
      'email',
      'slack',
      'teams',
      'discord',
      'mattermost',
      'googlechat',
      'ntfy',
      'gotify',
      'telegram',
      'opsgenie',
      'pagerduty',
      'generic_webhook',
    ])
      expect(served).toContain(t);
  });

  it('reads a destination and describes it', () => {
    expect(destinationForUrl(' discord://t@12 ').description).toBe('discord webhook 12');
  });
});
