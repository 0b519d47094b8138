// Discord destinations: discord://token@id, webhook URLs, connections, and the embed.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import { discordFromConnection, discordPayload, discordSender, parseDiscordUrl } from './discord.js';

describe('Discord destinations', () => {
  it('reads discord://token@id with options and baseUrl', () => {
    expect(parseDiscordUrl('discord://tok-EN_1@123456789?username=Ops&baseUrl=http://127.0.0.1:3/api')).toEqual({
      webhookId: '123456789',
      token: 'tok-EN_1',
      apiUrl: 'http://127.0.0.1:3/api',
      options: { username: 'Ops' },
    });
    expect(parseDiscordUrl('discord://t@1').apiUrl).toBe('https://discord.com/api');
  });

  it('reads webhook URLs', () => {
    expect(parseDiscordUrl('https://discord.com/api/webhooks/42/abc-DEF')).toMatchObject({
      webhookId: '42',
      token: 'abc-DEF',
      apiUrl: 'https://discord.com/api',
    });
  });

  it('rejects bad URLs', () => {
    expectBadDestination(() => parseDiscordUrl('discord://token@'), /nothing after "@"/);
    expectBadDestination(() => parseDiscordUrl('discord://@123'), /token is missing/);
    expectBadDestination(() => parseDiscordUrl('discord://t@abc'), /must be a number/);
    expectBadDestination(() => parseDiscordUrl('discord://t@1/raw'), /raw JSON mode is not/);
    expectBadDestination(() => parseDiscordUrl('https://discord.com/api/other'), /\/api\/webhooks/);
  });

  it('reads a connection: username = webhook ID, password = token, url = API URL', () => {
    const c = discordFromConnection({
      name: 'd',
      type: 'discord',
      url: 'http://127.0.0.1:4/api/',
      username: '77',
      password: 'secret-token',
      certificate: null,
      insecureTls: false,
      properties: {},
    });
    expect(c).toEqual({ webhookId: '77', token: 'secret-token', apiUrl: 'http://127.0.0.1:4/api', options: {} });
    expect(discordSender.describe(c)).toBe('discord webhook 77');
  });

  it('sends one embed coloured by severity, mentions off', () => {
    const p = discordPayload(parseDiscordUrl('discord://t@1?username=Ops'), testMessage());
    expect(p).toMatchObject({
      username: 'Ops',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: 'Check api-health failed',
          url: 'https://opsdeck.example.com/health?checkId=c1',
          color: 0xd60510,
          description: testMessage().body,
          footer: { text: 'check api-health' },
        },
      ],
    });
    const resolved = discordPayload(parseDiscordUrl('discord://t@1'), testMessage({ state: 'resolved' }));
    expect((resolved.embeds as { color: number }[])[0].color).toBe(0x2eb886);
  });
});
