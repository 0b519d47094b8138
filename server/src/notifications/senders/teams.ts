// Microsoft Teams: an Adaptive Card posted to a Teams webhook, in the message shape Teams Workflows
// ("Post to a channel when a webhook request is received") and incoming webhooks both take:
// {type: 'message', attachments: [{contentType: 'application/vnd.microsoft.card.adaptive', content: card}]}.
// The card: the title (coloured by severity/state), the body (the Markdown subset cards show) and an
// Action.OpenUrl to the console. URL forms:
//   teams://group@tenant/altId/groupOwner[/extraId]?host=org.webhook.office.com   shoutrrr (→ https://host/webhookb2/...)
//   https://….webhook.office.com/webhookb2/…, https://….logic.azure.com/workflows/…,
//   https://….powerplatform.com/…/workflows/…                                     the webhook URL itself
// `?baseUrl=` replaces https://<host> in the teams:// form; a connection's password is the webhook URL.
import type { ResolvedConnection } from '../../connections/resolve.js';
import { UUID } from '../../resources/routes.js';
import { LINK_LABEL } from './content.js';
import {
  badDestination,
  baseUrl,
  connectionSecret,
  decode,
  displayUrl,
  parseUrl,
  queryOptions,
  request,
  retryableStatus,
} from './http.js';
import { markdownToAdaptiveCard, truncate } from './markdown.js';
import { SenderError, type NotificationMessage, type Sender } from './sender.js';

const EXPECTED = 'teams://group@tenant/altId/groupOwner/extraId?host=org.webhook.office.com or the https webhook URL';

export interface TeamsConfig {
  webhookUrl: string;
}

const HASH = /^[A-Za-z0-9]{32}$/;

export function parseTeamsUrl(raw: string): TeamsConfig {
  const url = parseUrl(raw, 'teams', EXPECTED);
  if (url.protocol === 'https:' || url.protocol === 'http:') return { webhookUrl: url.toString() };
  if (url.protocol !== 'teams:') throw badDestination('teams', `unknown scheme ${url.protocol}`, EXPECTED);
  const options = queryOptions(url);
  let parts: string[];
  if (url.password) {
    // The first shoutrrr form: teams://group%40tenant:altId@groupOwner
    const [group, tenant] = decode(url.username).split('@');
    parts = [group ?? '', tenant ?? '', decode(url.password), decode(url.hostname)];
  } else {
    parts = [decode(url.username), decode(url.hostname), ...url.pathname.split('/').filter(Boolean).map(decode)];
  }
  const [group, tenant, altId, owner, extraId] = parts;
  const names = ['group', 'tenant', 'groupOwner'];
  for (const [i, value] of [group, tenant, owner].entries())
    if (!value || !UUID.test(value)) throw badDestination('teams', `the ${names[i]} part must be a UUID`, EXPECTED);
  if (!altId || !HASH.test(altId))
    throw badDestination('teams', 'the altId part must be 32 letters or digits', EXPECTED);
  if (parts.length > 5) throw badDestination('teams', 'too many path parts', EXPECTED);
  const host = options.host || 'outlook.office.com';
  const base = baseUrl(options.baseurl, 'teams') ?? `https://${host}`;
  // outlook.office.com is the original connector host, whose path was /webhook.
  const path = host === 'outlook.office.com' ? 'webhook' : 'webhookb2';
  const tail = [altId, owner, extraId].filter(Boolean).join('/');
  return { webhookUrl: `${base}/${path}/${group}@${tenant}/IncomingWebhook/${tail}` };
}

export function teamsFromConnection(conn: ResolvedConnection): TeamsConfig {
  const secret = connectionSecret(conn, 'teams', 'webhook URL');
  return parseTeamsUrl(secret);
}

/** The Adaptive Card message Teams accepts from webhooks and Workflows. */
export function teamsPayload(message: NotificationMessage): Record<string, unknown> {
  const color =
    message.state === 'resolved'
      ? 'Good'
      : message.severity === 'warning'
        ? 'Warning'
        : message.severity === 'info'
          ? 'Default'
          : 'Attention';
  const body: unknown[] = [
    {
      type: 'TextBlock',
      text: truncate(message.title, 500),
      weight: 'Bolder',
      size: 'Medium',
      style: 'heading',
      color,
      wrap: true,
    },
  ];
  const text = markdownToAdaptiveCard(message.body).trim();
  if (text) body.push({ type: 'TextBlock', text: truncate(text, 20000), wrap: true });
  const card: Record<string, unknown> = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    msteams: { width: 'Full' },
    body,
  };
  if (message.permalink) card.actions = [{ type: 'Action.OpenUrl', title: LINK_LABEL, url: message.permalink }];
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
  };
}

export const teamsSender: Sender<TeamsConfig> = {
  channel: 'teams',
  schemes: ['teams'],
  connectionTypes: ['teams'],
  fromUrl: parseTeamsUrl,
  fromConnection: teamsFromConnection,
  describe(config) {
    try {
      return `teams webhook (${new URL(config.webhookUrl).host})`;
    } catch {
      return `teams webhook (${displayUrl(config.webhookUrl)})`;
    }
  },
  async send(config, message, ctx) {
    const answer = await request('teams', { url: config.webhookUrl, json: teamsPayload(message) }, ctx, [
      config.webhookUrl,
      new URL(config.webhookUrl).pathname,
      new URL(config.webhookUrl).search.slice(1),
    ]);
    // Office connectors answer 200 with the failure in the text ("… returned HTTP error 429 …").
    const failed = /HTTP error (\d{3})/i.exec(answer.text);
    if (failed) {
      const status = Number(failed[1]);
      throw new SenderError(`teams: HTTP ${status}: ${answer.text.slice(0, 200)}`, retryableStatus(status));
    }
    return { response: { status: answer.status } };
  },
};
