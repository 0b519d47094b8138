// Generic webhook: the message as JSON ({title, message} under configurable keys, plus extra fields)
// or as a body rendered from a Go template, sent to any HTTP endpoint. URL forms (shoutrrr's generic):
//   generic+https://host/path?…   generic+http://host/path?…   generic://host/path?… (https; disabletls=yes → http)
// Query parameters: method, contenttype, titlekey, messagekey, title (a fixed title), template (json, or
// a Go template for the body), bodytemplate; `@Name=value` adds a request header, `$key=value` a JSON
// field; every other parameter is passed on to the endpoint (`_name` passes on `name` when it is one
// of the reserved names). Userinfo in the URL is sent as Basic auth. The target URL is itself the base
// URL (tests use generic+http://127.0.0.1:port/…). A connection has url (the endpoint, same query
// syntax), properties method, contentType, messageKey, titleKey and bodyTemplate, username and password
// (both → Basic, password alone → Bearer) and insecure_tls.
import type { ResolvedConnection } from '../../connections/resolve.js';
import { renderTemplate } from '../../expr/index.js';
import { messageFields } from './content.js';
import {
  badDestination,
  basicAuth,
  decode,
  displayUrl,
  flag,
  option,
  parseUrl,
  propertyOptions,
  request,
} from './http.js';
import { SenderError, type NotificationMessage, type Sender } from './sender.js';

const EXPECTED = 'generic+https://host/path, generic+http://host/path or generic://host/path';
const RESERVED = ['method', 'contenttype', 'titlekey', 'messagekey', 'title', 'template', 'bodytemplate', 'disabletls'];
const METHODS = ['POST', 'PUT', 'PATCH', 'GET'];

export interface GenericConfig {
  /** The endpoint, forwarded query included, credentials not. */
  url: string;
  method: string;
  contentType: string;
  titleKey: string;
  messageKey: string;
  /** A fixed title instead of the message's. */
  title?: string;
  headers: Record<string, string>;
  extra: Record<string, string>;
  bodyTemplate?: string;
  authorization?: string;
  insecureTls: boolean;
}

interface Parsed {
  config: GenericConfig;
  options: Record<string, string>;
}

function parseTarget(raw: string, allowPlainHttp: boolean): Parsed {
  const url = parseUrl(raw, 'generic', EXPECTED);
  let scheme: string;
  if (url.protocol === 'generic+https:' || url.protocol === 'generic+http:') scheme = url.protocol.slice(8, -1);
  else if (url.protocol === 'generic:') scheme = 'https';
  else if (allowPlainHttp && (url.protocol === 'https:' || url.protocol === 'http:'))
    scheme = url.protocol.slice(0, -1);
  else throw badDestination('generic', `unknown scheme ${url.protocol}`, EXPECTED);
  if (!url.hostname) throw badDestination('generic', 'the host is missing', EXPECTED);
  const options: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const extra: Record<string, string> = {};
  const forwarded = new URLSearchParams();
  for (const [key, value] of url.searchParams) {
    const lower = key.toLowerCase();
    if (key.startsWith('@') && key.length > 1) headers[headerName(key.slice(1))] = value;
    else if (key.startsWith('$') && key.length > 1) extra[key.slice(1)] = value;
    else if (RESERVED.includes(lower)) options[lower] = value;
    else if (key.startsWith('_') && RESERVED.includes(lower.slice(1))) forwarded.append(key.slice(1), value);
    else forwarded.append(key, value);
  }
  if (url.protocol === 'generic:' && flag(options.disabletls, false)) scheme = 'http';
  const query = forwarded.toString();
  const target = `${scheme}://${url.host}${url.pathname}${query ? `?${query}` : ''}`;
  const authorization = url.username ? basicAuth(decode(url.username), decode(url.password)) : undefined;
  return {
    options,
    config: {
      url: target,
      method: 'POST',
      contentType: 'application/json',
      titleKey: 'title',
      messageKey: 'message',
      headers,
      extra,
      authorization,
      insecureTls: false,
    },
  };
}

/** `acceptLanguage` → `Accept-Language`, as shoutrrr writes header names in query keys. */
function headerName(key: string): string {
  const words = key.includes('-') ? key.split('-') : key.split(/(?=[A-Z])/);
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('-');
}

function applyOptions(config: GenericConfig, options: Record<string, string>): GenericConfig {
  const method = (options.method ?? config.method).toUpperCase();
  if (!METHODS.includes(method)) throw badDestination('generic', `method must be one of ${METHODS.join(', ')}`);
  let bodyTemplate = options.bodytemplate;
  const template = options.template;
  if (template && template.toLowerCase() !== 'json') {
    if (!template.includes('{{'))
      throw badDestination('generic', `template "${template}" is not json or a Go template`);
    bodyTemplate ??= template;
  }
  return {
    ...config,
    method,
    contentType: options.contenttype || config.contentType,
    titleKey: options.titlekey || config.titleKey,
    messageKey: options.messagekey || config.messageKey,
    title: options.title || config.title,
    bodyTemplate: bodyTemplate || config.bodyTemplate,
  };
}

export function parseGenericUrl(raw: string): GenericConfig {
  const { config, options } = parseTarget(raw, false);
  return applyOptions(config, options);
}

export function genericFromConnection(conn: ResolvedConnection): GenericConfig {
  if (!conn.url) throw badDestination('generic', `connection ${conn.name} has no URL`);
  const { config, options } = parseTarget(conn.url, true);
  const props = propertyOptions(conn.properties);
  let authorization = config.authorization;
  if (conn.username) authorization = basicAuth(conn.username, conn.password ?? '');
  else if (conn.password) authorization = `Bearer ${conn.password}`;
  return {
    ...applyOptions(config, { ...options, ...props }),
    authorization,
    insecureTls: conn.insecureTls,
  };
}

/** The request body for the message (undefined for GET). */
export function genericBody(config: GenericConfig, message: NotificationMessage): string | undefined {
  if (config.method === 'GET') return undefined;
  const template = option({}, message.properties, 'bodyTemplate') ?? config.bodyTemplate;
  const fields = { ...messageFields(message), ...(config.title ? { title: config.title } : {}) };
  if (template) {
    try {
      return renderTemplate(template, fields);
    } catch (e) {
      throw new SenderError(`generic: the body template failed: ${e instanceof Error ? e.message : String(e)}`, false);
    }
  }
  return JSON.stringify({
    ...config.extra,
    [config.titleKey]: fields.title,
    [config.messageKey]: message.body,
  });
}

export const genericSender: Sender<GenericConfig> = {
  channel: 'generic',
  schemes: ['generic', 'generic+http', 'generic+https'],
  connectionTypes: ['generic_webhook'],
  fromUrl: parseGenericUrl,
  fromConnection: genericFromConnection,
  describe: (config) => `generic ${config.method} ${displayUrl(config.url)}`,
  async send(config, message, ctx) {
    let url = config.url;
    if (config.method === 'GET') {
      const u = new URL(url);
      u.searchParams.set(config.titleKey, config.title ?? message.title);
      u.searchParams.set(config.messageKey, message.body);
      url = u.toString();
    }
    const headers: Record<string, string> = { ...config.headers };
    if (config.method !== 'GET') headers['content-type'] = config.contentType;
    if (config.authorization) headers.authorization = config.authorization;
    const answer = await request(
      'generic',
      { method: config.method, url, headers, body: genericBody(config, message), insecureTls: config.insecureTls },
      ctx,
      [
        config.authorization?.replace(/^\S+\s/, ''),
        ...Object.values(config.headers),
        new URL(config.url).search.slice(1),
      ],
    );
    return { response: { status: answer.status, body: answer.text.slice(0, 200) } };
  },
};
