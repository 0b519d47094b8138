// Opsgenie: the Alert API with `Authorization: GenieKey {key}`. A firing message creates an alert
// (POST /v2/alerts: message = the title, alias = the message's dedupKey so repeats are deduplicated,
// description = the body, priority by severity unless given, responders, tags, details …); a resolved
// one closes it (POST /v2/alerts/{alias}/close?identifierType=alias). URL form (shoutrrr):
//   opsgenie://[host[:port]]/{apiKey}[?responders=team:sre,user:a@b.c&visibleTo=&tags=&details=k:v,…
//     &priority=P1..P5&entity=&source=&note=&user=&actions=&baseUrl=]
// Host defaults to api.opsgenie.com (api.eu.opsgenie.com for EU); `baseUrl` replaces https://host[:port].
// A connection has password = the API key and properties host, port, responders; a host written as a
// URL (http://127.0.0.1:8080) is used as the base URL as it is.
import type { ResolvedConnection } from '../../connections/resolve.js';
import { UUID } from '../../resources/routes.js';
import {
  badDestination,
  baseUrl,
  connectionSecret,
  decode,
  displayUrl,
  list,
  parseChannelUrl,
  propertyOptions,
  queryOptions,
  request,
  sendOptions,
  type Options,
} from './http.js';
import { truncate } from './markdown.js';
import type { NotificationMessage, Sender } from './sender.js';

const EXPECTED = 'opsgenie://[host[:port]]/apiKey[?responders=team:name,user:name]';
const API_HOST = 'api.opsgenie.com';
const RESPONDER_TYPES = ['team', 'user', 'escalation', 'schedule'];

export interface OpsgenieConfig {
  apiUrl: string;
  apiKey: string;
  options: Options;
}

export interface OpsgenieEntity {
  type: string;
  id?: string;
  name?: string;
  username?: string;
}

/** `team:sre,user:a@b.c,escalation:…,schedule:…`; a UUID is an id, a user otherwise a username. */
export function parseResponders(value: string | undefined, field = 'responders'): OpsgenieEntity[] {
  return list(value).map((item) => {
    const at = item.indexOf(':');
    const type = item.slice(0, at).trim().toLowerCase();
    const ident = item.slice(at + 1).trim();
    if (at < 1 || !ident || !RESPONDER_TYPES.includes(type))
      throw badDestination('opsgenie', `${field}: "${item}" must be type:name with type ${RESPONDER_TYPES.join(', ')}`);
    if (UUID.test(ident)) return { type, id: ident };
    return type === 'user' ? { type, username: ident } : { type, name: ident };
  });
}

export function parseOpsgenieUrl(raw: string): OpsgenieConfig {
  const url = parseChannelUrl(raw, 'opsgenie', EXPECTED);
  const apiKey = decode(url.pathname.replace(/^\/+|\/+$/g, ''));
  if (!apiKey) throw badDestination('opsgenie', 'the API key is missing', EXPECTED);
  if (apiKey.includes('/')) throw badDestination('opsgenie', 'the API key must be one path segment', EXPECTED);
  const options = queryOptions(url);
  parseResponders(options.responders);
  parseResponders(options.visibleto, 'visibleTo');
  const apiUrl = baseUrl(options.baseurl, 'opsgenie') ?? `https://${url.host || API_HOST}`;
  delete options.baseurl;
  return { apiUrl, apiKey, options };
}

export function opsgenieFromConnection(conn: ResolvedConnection): OpsgenieConfig {
  const apiKey = connectionSecret(conn, 'opsgenie', 'API key');
  const options = propertyOptions(conn.properties);
  parseResponders(options.responders);
  const host = options.host || API_HOST;
  const port = options.port && options.port !== '443' ? `:${options.port}` : '';
  const apiUrl = /^https?:\/\//.test(host) ? baseUrl(host, 'opsgenie')! : `https://${host}${port}`;
  delete options.host;
  delete options.port;
  return { apiUrl, apiKey, options };
}

/** The create-alert request body for the message. */
export function opsgenieAlert(config: OpsgenieConfig, message: NotificationMessage): Record<string, unknown> {
  const opt = sendOptions(config.options, message.properties);
  const alert: Record<string, unknown> = {
    message: truncate(message.title, 130),
    alias: truncate(message.dedupKey, 512),
    description: truncate(
      [message.body.trim(), message.permalink ?? ''].filter(Boolean).join('\n\n') || message.title,
      15000,
    ),
    priority: opt('priority') ?? { critical: 'P1', error: 'P2', warning: 'P3', info: 'P4' }[message.severity],
    source: opt('source') ?? 'Opsdeck',
  };
  const responders = parseResponders(opt('responders'));
  if (responders.length) alert.responders = responders;
  const visibleTo = parseResponders(opt('visibleto'), 'visibleTo');
  if (visibleTo.length) alert.visibleTo = visibleTo;
  const tags = list(opt('tags'));
  if (tags.length) alert.tags = tags;
  const actions = list(opt('actions'));
  if (actions.length) alert.actions = actions;
  const details: Record<string, string> = {};
  for (const pair of list(opt('details'))) {
    const at = pair.indexOf(':');
    if (at > 0) details[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  if (message.permalink) details.permalink = message.permalink;
  if (message.resource)
    Object.assign(details, { resourceType: message.resource.type, resourceId: message.resource.id });
  if (Object.keys(details).length) alert.details = details;
  const entity = opt('entity') ?? message.resource?.name;
  if (entity) alert.entity = truncate(entity, 512);
  for (const key of ['note', 'user']) {
    const value = opt(key);
    if (value) alert[key] = value;
  }
  return alert;
}

export const opsgenieSender: Sender<OpsgenieConfig> = {
  channel: 'opsgenie',
  schemes: ['opsgenie'],
  connectionTypes: ['opsgenie'],
  fromUrl: parseOpsgenieUrl,
  fromConnection: opsgenieFromConnection,
  describe(config) {
    const responders = config.options.responders;
    return `opsgenie ${displayUrl(config.apiUrl)}${responders ? ` responders ${responders}` : ''}`;
  },
  async send(config, message, ctx) {
    const headers = { authorization: `GenieKey ${config.apiKey}` };
    const opt = sendOptions(config.options, message.properties);
    const alias = truncate(message.dedupKey, 512);
    const answer =
      message.state === 'resolved'
        ? await request(
            'opsgenie',
            {
              url: `${config.apiUrl}/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`,
              headers,
              json: { source: opt('source') ?? 'Opsdeck', note: `Resolved: ${truncate(message.title, 200)}` },
            },
            ctx,
            [config.apiKey],
          )
        : await request(
            'opsgenie',
            { url: `${config.apiUrl}/v2/alerts`, headers, json: opsgenieAlert(config, message) },
            ctx,
            [config.apiKey],
          );
    const result = (answer.json ?? {}) as { result?: string; requestId?: string };
    return { response: { result: result.result, requestId: result.requestId } };
  },
};
