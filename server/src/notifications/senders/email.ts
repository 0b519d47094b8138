// Email over SMTP with nodemailer: subject = the title, an HTML part (the message's HTML, or the body
// converted, and a button to the console) and a plain-text part. Destinations:
//   smtp://[user:password@]host[:port]/?from=&to=a@x,b@y[&fromName=&encryption=Auto|None|ExplicitTLS|ImplicitTLS
//     &auth=Unknown|None|Plain|Login|CRAMMD5|OAuth2&usestarttls=no&subject=&clienthost=]   shoutrrr (port 25)
//   smtps://…                       implicit TLS (port 465)
//   an email connection             properties host, port, from, fromName, encryption, auth, to; username,
//                                   password; insecure_tls
//   emailConfig(SMTP_URL, from, to) the server's own SMTP settings (`?tls=off|insecure`, port 587), for
//                                   rules that mail people, teams and plain addresses
// The host and port are the "base URL": tests point them at an in-process SMTP server.
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { ResolvedConnection } from '../../connections/resolve.js';
import { LINK_LABEL } from './content.js';
import {
  badDestination,
  decode,
  flag,
  list,
  option,
  parseUrl,
  propertyOptions,
  queryOptions,
  redactor,
} from './http.js';
import { escapeHtml, markdownToHtml, markdownToText } from './markdown.js';
import { SenderError, type NotificationMessage, type SendContext, type Sender } from './sender.js';

const EXPECTED = 'smtp://user:password@host:port/?from=sender@example.com&to=a@example.com,b@example.com';
const ENCRYPTIONS = ['Auto', 'None', 'ExplicitTLS', 'ImplicitTLS'] as const;
const AUTHS = ['Unknown', 'None', 'Plain', 'CRAMMD5', 'Login', 'OAuth2'] as const;

export interface EmailConfig {
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** An address, or "Name <address>". */
  from: string;
  fromName?: string;
  to: string[];
  encryption: (typeof ENCRYPTIONS)[number];
  auth: (typeof AUTHS)[number];
  /** STARTTLS when the server offers it (encryption Auto). */
  startTls: boolean;
  insecureTls: boolean;
  clientHost?: string;
  /** A fixed subject instead of the message's title. */
  subject?: string;
}

function pick<T extends string>(value: string | undefined, allowed: readonly T[], field: string, fallback: T): T {
  if (!value) return fallback;
  const found = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!found) throw badDestination('email', `${field} must be one of ${allowed.join(', ')}, not ${value}`);
  return found;
}

function parsePort(value: string | undefined, fallback: number): number {
  if (!value) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw badDestination('email', `port ${value} is not valid`);
  return port;
}

function fromSmtpUrl(raw: string, defaultPort: number): EmailConfig {
  const url = parseUrl(raw, 'email', EXPECTED);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw badDestination('email', `unknown scheme ${url.protocol}`, EXPECTED);
  if (!url.hostname) throw badDestination('email', 'the SMTP host is missing', EXPECTED);
  const o = queryOptions(url);
  const implicit = url.protocol === 'smtps:';
  const encryption = pick(o.encryption, ENCRYPTIONS, 'encryption', implicit ? 'ImplicitTLS' : 'Auto');
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: parsePort(url.port, implicit || encryption === 'ImplicitTLS' ? 465 : defaultPort),
    username: decode(url.username) || undefined,
    password: decode(url.password) || undefined,
    from: o.from ?? o.fromaddress ?? '',
    fromName: o.fromname,
    to: list(o.to ?? o.toaddresses),
    encryption,
    auth: pick(o.auth, AUTHS, 'auth', 'Unknown'),
    startTls: flag(o.usestarttls ?? o.starttls, true) && o.tls !== 'off',
    insecureTls: o.tls === 'insecure',
    clientHost: o.clienthost,
    subject: o.subject ?? o.title,
  };
}

export function parseEmailUrl(raw: string): EmailConfig {
  const config = fromSmtpUrl(raw, 25);
  if (!config.from) throw badDestination('email', 'the from address is missing (?from=)', EXPECTED);
  if (!config.to.length) throw badDestination('email', 'no recipients (?to=)', EXPECTED);
  return config;
}

/** The server's SMTP settings (SMTP_URL, the sender address) delivering to `to`. */
export function emailConfig(smtpUrl: string | undefined, from: string, to: readonly string[]): EmailConfig {
  if (!smtpUrl) throw new SenderError('email: SMTP_URL is not configured, so mail cannot be sent', false);
  const config = fromSmtpUrl(smtpUrl, 587);
  return { ...config, from: config.from || from, to: [...to] };
}

export function emailFromConnection(conn: ResolvedConnection): EmailConfig {
  const p = propertyOptions(conn.properties);
  if (!p.host) throw badDestination('email', `connection ${conn.name} has no SMTP host`);
  if (!p.from) throw badDestination('email', `connection ${conn.name} has no from address`);
  const encryption = pick(p.encryption, ENCRYPTIONS, 'encryption', 'Auto');
  return {
    host: p.host,
    port: parsePort(p.port, encryption === 'ImplicitTLS' ? 465 : 587),
    username: conn.username || undefined,
    password: conn.password || undefined,
    from: p.from,
    fromName: p.fromname,
    to: list(p.to),
    encryption,
    auth: pick(p.auth, AUTHS, 'auth', 'Unknown'),
    startTls: true,
    insecureTls: conn.insecureTls,
  };
}

/** nodemailer's SMTP options for the destination. */
export function transportOptions(config: EmailConfig, timeoutMs: number): SMTPTransport.Options {
  const secure = config.encryption === 'ImplicitTLS' || (config.encryption === 'Auto' && config.port === 465);
  const options: SMTPTransport.Options = {
    host: config.host,
    port: config.port,
    secure,
    requireTLS: config.encryption === 'ExplicitTLS',
    ignoreTLS: config.encryption === 'None' || (config.encryption === 'Auto' && !config.startTls),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    name: config.clientHost,
    tls: config.insecureTls ? { rejectUnauthorized: false } : undefined,
  };
  if (config.auth !== 'None' && config.username) {
    if (config.auth === 'OAuth2')
      options.auth = { type: 'OAuth2', user: config.username, accessToken: config.password };
    else options.auth = { user: config.username, pass: config.password ?? '' };
    const method = { Plain: 'PLAIN', Login: 'LOGIN', CRAMMD5: 'CRAM-MD5' }[config.auth as string];
    if (method) options.authMethod = method;
  }
  return options;
}

/** The mail's subject, HTML and text parts. */
export function emailContent(config: EmailConfig, message: NotificationMessage) {
  const html = message.html.trim() || markdownToHtml(message.body);
  const link = message.permalink
    ? `\n<p><a href="${escapeHtml(message.permalink)}" style="display:inline-block;padding:8px 14px;` +
      `background:#2563eb;color:#ffffff;text-decoration:none;border-radius:4px">${LINK_LABEL}</a></p>`
    : '';
  const text = markdownToText(message.body) + (message.permalink ? `\n\n${LINK_LABEL}: ${message.permalink}` : '');
  return {
    subject: option({}, message.properties, 'subject') ?? config.subject ?? message.title,
    html: `<div style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:14px">${html}${link}</div>`,
    text,
  };
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
}

export const emailSender: Sender<EmailConfig> = {
  channel: 'email',
  schemes: ['smtp', 'smtps'],
  connectionTypes: ['email'],
  fromUrl: parseEmailUrl,
  fromConnection: emailFromConnection,
  describe: (config) => `email to ${config.to.join(', ') || '(no recipients)'} via ${config.host}:${config.port}`,
  async send(config, message, ctx: SendContext) {
    if (!config.to.length) throw new SenderError('email: no recipients', false);
    const redact = redactor([config.password]);
    const transport = nodemailer.createTransport(transportOptions(config, ctx.timeoutMs));
    const from = config.fromName ? { name: config.fromName, address: config.from } : config.from;
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new SenderError(`email: no answer within ${ctx.timeoutMs} ms`, true));
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const info = await Promise.race([
        transport.sendMail({ from, to: config.to, ...emailContent(config, message) }),
        aborted,
      ]);
      return { response: { messageId: info.messageId, accepted: info.accepted, rejected: info.rejected } };
    } catch (e) {
      if (e instanceof SenderError) throw e;
      const err = e as SmtpError;
      // 5xx SMTP replies, failed logins and TLS the server cannot do fail the same way next time.
      const permanent =
        (err.responseCode !== undefined && err.responseCode >= 500) || err.code === 'EAUTH' || err.code === 'ETLS';
      throw new SenderError(redact(`email: ${err.code ? `${err.code}: ` : ''}${err.message}`), !permanent);
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      aborted.catch(() => {});
      transport.close();
    }
  },
};
