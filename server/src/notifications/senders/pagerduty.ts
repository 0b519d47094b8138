// PagerDuty: the Events API v2, POST {events}/v2/enqueue. A firing message triggers (payload: summary =
// the title, source, severity, custom_details with the body and resource; links and client_url to the
// console); a resolved one resolves the same dedup_key (the message's dedupKey), so one alert opens and
// closes one incident. URL forms (shoutrrr's, and the key as a parameter):
//   pagerduty://[host[:port]]/{integrationKey}[?severity=&source=&baseUrl=]
//   pagerduty://[host[:port]]/?integrationKey={key}
// Host defaults to events.pagerduty.com; `baseUrl` replaces https://host[:port]. A connection has
// password = the integration (routing) key, url = the Events API URL and properties.severity. A severity
// option (URL, connection or the rule's to.properties) fixes the event's severity; else the message's.
import type { ResolvedConnection } from '../../connections/resolve.js';
import { LINK_LABEL } from './content.js';
import {
  badDestination,
  baseUrl,
  connectionSecret,
  decode,
  displayUrl,
  parseChannelUrl,
  propertyOptions,
  queryOptions,
  request,
  sendOptions,
  type Options,
} from './http.js';
import { truncate } from './markdown.js';
import type { NotificationMessage, Sender } from './sender.js';

const EXPECTED = 'pagerduty://[host]/integrationKey or pagerduty://[host]/?integrationKey=KEY';
const EVENTS_URL = 'https://events.pagerduty.com';
const SEVERITIES = ['critical', 'error', 'warning', 'info'];

export interface PagerDutyConfig {
  eventsUrl: string;
  routingKey: string;
  options: Options;
}

export function parsePagerDutyUrl(raw: string): PagerDutyConfig {
  const url = parseChannelUrl(raw, 'pagerduty', EXPECTED);
  const options = queryOptions(url);
  const fromPath = decode(url.pathname.replace(/^\/+|\/+$/g, ''));
  const routingKey = options.integrationkey || options.routing_key || fromPath;
  if (!routingKey) throw badDestination('pagerduty', 'the integration key is missing', EXPECTED);
  if (!/^[A-Za-z0-9]+$/.test(routingKey))
    throw badDestination('pagerduty', 'the integration key must be letters and digits only', EXPECTED);
  if (options.severity && !SEVERITIES.includes(options.severity))
    throw badDestination('pagerduty', `severity must be one of ${SEVERITIES.join(', ')}`);
  const eventsUrl = baseUrl(options.baseurl, 'pagerduty') ?? (url.host ? `https://${url.host}` : EVENTS_URL);
  for (const key of ['baseurl', 'integrationkey', 'routing_key']) delete options[key];
  return { eventsUrl, routingKey, options };
}

export function pagerDutyFromConnection(conn: ResolvedConnection): PagerDutyConfig {
  const routingKey = connectionSecret(conn, 'pagerduty', 'integration key');
  return {
    eventsUrl: baseUrl(conn.url, 'pagerduty') ?? EVENTS_URL,
    routingKey,
    options: propertyOptions(conn.properties),
  };
}

/** The Events API v2 event for the message. */
export function pagerDutyEvent(config: PagerDutyConfig, message: NotificationMessage): Record<string, unknown> {
  const opt = sendOptions(config.options, message.properties);
  const dedupKey = truncate(message.dedupKey, 255);
  if (message.state === 'resolved')
    return { routing_key: config.routingKey, event_action: 'resolve', dedup_key: dedupKey };
  const severity = opt('severity');
  const payload: Record<string, unknown> = {
    summary: truncate(message.title, 1024),
    source: opt('source') ?? message.resource?.name ?? 'opsdeck',
    severity: severity && SEVERITIES.includes(severity) ? severity : message.severity,
    timestamp: new Date().toISOString(),
    custom_details: {
      body: message.body,
      ...(message.resource ? { resource_type: message.resource.type, resource_id: message.resource.id } : {}),
    },
  };
  if (message.resource) payload.component = message.resource.name;
  const group = opt('group');
  if (group) payload.group = group;
  const cls = opt('class');
  if (cls) payload.class = cls;
  const event: Record<string, unknown> = {
    routing_key: config.routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload,
    client: 'Opsdeck',
  };
  if (message.permalink) {
    event.client_url = message.permalink;
    event.links = [{ href: message.permalink, text: LINK_LABEL }];
  }
  return event;
}

export const pagerDutySender: Sender<PagerDutyConfig> = {
  channel: 'pagerduty',
  schemes: ['pagerduty'],
  connectionTypes: ['pagerduty'],
  fromUrl: parsePagerDutyUrl,
  fromConnection: pagerDutyFromConnection,
  describe: (config) => `pagerduty events ${displayUrl(config.eventsUrl)}`,
  async send(config, message, ctx) {
    const answer = await request(
      'pagerduty',
      { url: `${config.eventsUrl}/v2/enqueue`, json: pagerDutyEvent(config, message) },
      ctx,
      [config.routingKey],
    );
    const result = (answer.json ?? {}) as { status?: string; message?: string; dedup_key?: string };
    return { response: { status: result.status, message: result.message, dedup_key: result.dedup_key } };
  },
};
