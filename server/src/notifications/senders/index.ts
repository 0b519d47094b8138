// The channel registry: every sender, found by a destination URL's scheme (or, for a bare https
// webhook URL, by its well-known host) or by a connection's type (aliases included).
import { connectionType } from '@opsdeck/common/connections';
import type { ResolvedConnection } from '../../connections/resolve.js';
import { discordSender } from './discord.js';
import { emailSender } from './email.js';
import { genericSender } from './generic.js';
import { googleChatSender } from './googlechat.js';
import { gotifySender } from './gotify.js';
import { mattermostSender } from './mattermost.js';
import { ntfySender } from './ntfy.js';
import { opsgenieSender } from './opsgenie.js';
import { pagerDutySender } from './pagerduty.js';
import { SenderError, type Sender } from './sender.js';
import { slackSender } from './slack.js';
import { teamsSender } from './teams.js';
import { telegramSender } from './telegram.js';

export { emailConfig } from './email.js';
export * from './sender.js';

/** Every channel; a new one is a module and a line here. */
export const SENDERS: readonly Sender[] = [
  emailSender,
  slackSender,
  teamsSender,
  discordSender,
  mattermostSender,
  googleChatSender,
  ntfySender,
  gotifySender,
  telegramSender,
  pagerDutySender,
  opsgenieSender,
  genericSender,
];

/** https webhook URLs whose host says which service they are. */
const WEBHOOK_HOSTS: readonly { test: (host: string, path: string) => boolean; sender: Sender }[] = [
  { test: (host) => host === 'hooks.slack.com', sender: slackSender },
  {
    test: (host) =>
      host === 'outlook.office.com' ||
      host.endsWith('.webhook.office.com') ||
      host.endsWith('.logic.azure.com') ||
      host.endsWith('.powerplatform.com'),
    sender: teamsSender,
  },
  {
    test: (host, path) => /^((canary|ptb)\.)?discord(app)?\.com$/.test(host) && path.startsWith('/api/webhooks/'),
    sender: discordSender,
  },
  { test: (host) => host === 'chat.googleapis.com', sender: googleChatSender },
];

/** The channel for a destination URL; a SenderError (not retryable) when no channel reads it. */
export function senderForUrl(url: string): Sender {
  const m = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url.trim());
  if (!m) throw new SenderError('notification URL must look like scheme://…, e.g. slack://token@channel', false);
  const scheme = m[1].toLowerCase();
  if (scheme === 'https' || scheme === 'http') {
    let parsed: URL;
    try {
      parsed = new URL(url.trim());
    } catch {
      throw new SenderError('notification URL is not a valid URL', false);
    }
    const known = WEBHOOK_HOSTS.find((w) => w.test(parsed.hostname.toLowerCase(), parsed.pathname));
    if (known) return known.sender;
    throw new SenderError(
      `${parsed.host} is not a known webhook host (Slack, Teams, Discord, Google Chat); ` +
        `write generic+${scheme}://… to POST the message as JSON`,
      false,
    );
  }
  const sender = SENDERS.find((s) => s.schemes.includes(scheme));
  if (!sender)
    throw new SenderError(
      `no notification channel reads ${scheme}:// URLs (known: ${SENDERS.flatMap((s) => s.schemes).join(', ')})`,
      false,
    );
  return sender;
}

/** The channel for a stored connection, by its type or an alias of it. */
export function senderForConnection(conn: Pick<ResolvedConnection, 'type' | 'name'>): Sender {
  const type = connectionType(conn.type)?.type;
  const sender = type ? SENDERS.find((s) => s.connectionTypes.includes(type)) : undefined;
  if (!sender)
    throw new SenderError(`connection ${conn.name} of type ${conn.type} is not a notification channel`, false);
  return sender;
}

/** A destination read and ready to send to. */
export interface Destination {
  sender: Sender;
  config: unknown;
  /** For history and logs; no secrets. */
  description: string;
}

export function destinationForUrl(url: string): Destination {
  const sender = senderForUrl(url);
  const config = sender.fromUrl(url.trim());
  return { sender, config, description: sender.describe(config) };
}

export function destinationForConnection(conn: ResolvedConnection): Destination {
  const sender = senderForConnection(conn);
  const config = sender.fromConnection(conn);
  return { sender, config, description: sender.describe(config) };
}
