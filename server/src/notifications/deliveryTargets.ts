// Where a pending send goes: the row's recipient (body_payload.recipient, README.md) turned into a
// channel and its destination — email through the server's SMTP, a stored connection through the
// channel serving its type, a shoutrrr-style URL through the channel of its scheme — and the rule's
// fallback recipient turned into rows to insert when a delivery ends in error.
import { parseDurationNs } from '@opsdeck/common/notifications';
import type { Queryable } from '../db/database.js';
import { connectionResolver, sanitizeUrl, type ResolvedConnection } from '../connections/resolve.js';
import type { FallbackRecipient, PendingRow, Rule } from './deliveryStore.js';
import { emailConfig, emailSender } from './senders/email.js';
import { senderForConnection, senderForUrl } from './senders/index.js';
import {
  SenderError,
  type NotificationMessage,
  type SendContext,
  type Sender,
  type SendResult,
} from './senders/sender.js';

/** The channels delivery uses (senders/index.ts in production; tests may pass their own). */
export interface Channels {
  /** The channel whose scheme the URL has; throws SenderError(…, false) for an unknown scheme. */
  senderForUrl(url: string): Sender;
  /** The channel serving the connection's type; throws SenderError(…, false) when none does. */
  senderForConnection(connection: ResolvedConnection): Sender;
  /** Mail to addresses through the server's SMTP (SendContext.smtp). */
  sendEmail(to: string[], message: NotificationMessage, ctx: SendContext): Promise<SendResult>;
}

/** The channels of senders/: mail to addresses goes through the email channel with the server's SMTP. */
export const serverChannels: Channels = {
  senderForUrl,
  senderForConnection,
  sendEmail: (to, message, ctx) => emailSender.send(emailConfig(ctx.smtp.url, ctx.smtp.from, to), message, ctx),
};

/** A resolved destination: how to send there, and what to show in history. */
export interface Target {
  display: string;
  /** Channel options from the connection (the rule's own properties are merged over them). */
  properties: Record<string, string>;
  send(message: NotificationMessage, ctx: SendContext): Promise<SendResult>;
}

export const NO_SMTP =
  'No SMTP server is configured (SMTP_URL): email to people, teams and addresses cannot be sent until it is set';

interface Recipient {
  kind: string;
  value: string;
}

function recipientOf(row: PendingRow): Recipient | undefined {
  const r = row.body_payload?.recipient as Partial<Recipient> | undefined;
  if (r && typeof r.kind === 'string' && typeof r.value === 'string') return { kind: r.kind, value: r.value };
  if (row.person_id) return { kind: 'person', value: row.person_id };
  if (row.team_id) return { kind: 'team', value: row.team_id };
  return undefined;
}

const looksLikeEmail = (s: string) => /^[^@\s]+@[^@\s]+$/.test(s);

async function personEmails(db: Queryable, ref: string): Promise<{ id: string; email: string }[]> {
  const { rows } = await db.query<{ id: string; email: string }>(
    `SELECT id, email FROM people WHERE deleted_at IS NULL AND email IS NOT NULL
       AND (id::text = $1 OR lower(email) = lower($1) OR name = $1) ORDER BY created_at LIMIT 1`,
    [ref],
  );
  return rows;
}

async function teamEmails(db: Queryable, ref: string): Promise<{ id: string; email: string; team_id: string }[]> {
  const { rows } = await db.query<{ id: string; email: string; team_id: string }>(
    `SELECT p.id, p.email, t.id AS team_id FROM teams t
       JOIN team_members m ON m.team_id = t.id JOIN people p ON p.id = m.person_id
     WHERE t.deleted_at IS NULL AND p.deleted_at IS NULL AND p.email IS NOT NULL
       AND (t.id::text = $1 OR t.name = $1) ORDER BY p.email`,
    [ref],
  );
  return rows;
}

function emailTarget(addresses: string[], channels: Channels): Target {
  return {
    display: addresses.join(', '),
    properties: {},
    send: (message, ctx) => {
      if (!ctx.smtp.url) throw new SenderError(NO_SMTP, false);
      return channels.sendEmail(addresses, message, ctx);
    },
  };
}

function senderTarget(sender: Sender, config: unknown, properties: Record<string, string>): Target {
  return {
    display: sender.describe(config),
    properties,
    send: (message, ctx) => sender.send(config, message, ctx),
  };
}

/** Resolves the row's recipient; throws SenderError (not retryable) when it cannot be used. */
export async function resolveTarget(db: Queryable, row: PendingRow, channels: Channels): Promise<Target> {
  const to = recipientOf(row);
  if (!to) throw new SenderError('the row names no recipient', false);
  switch (to.kind) {
    case 'email': {
      const addresses = to.value
        .split(/[,;]/)
        .map((a) => a.trim())
        .filter(Boolean);
      if (!addresses.length) throw new SenderError('no email address to send to', false);
      return emailTarget(addresses, channels);
    }
    case 'person': {
      const found = looksLikeEmail(to.value) ? [{ email: to.value }] : await personEmails(db, to.value);
      if (!found.length) throw new SenderError(`person ${to.value} has no email address`, false);
      return emailTarget([found[0]!.email], channels);
    }
    case 'team': {
      const members = await teamEmails(db, to.value);
      if (!members.length) throw new SenderError(`team ${to.value} has no member with an email address`, false);
      return emailTarget(
        members.map((m) => m.email),
        channels,
      );
    }
    case 'connection': {
      const connection = await connectionResolver(db)(to.value);
      if (!connection) throw new SenderError(`connection ${to.value} was not found`, false);
      const sender = channels.senderForConnection(connection);
      return senderTarget(sender, sender.fromConnection(connection), connection.properties);
    }
    case 'url': {
      const sender = channels.senderForUrl(to.value);
      return senderTarget(sender, sender.fromUrl(to.value), {});
    }
    default:
      throw new SenderError(`recipient kind "${to.kind}" is not delivered by a channel`, false);
  }
}

/** The rule's own channel options (`properties`, and the `to.properties` the rule gave this destination). */
export function ruleProperties(rule: Rule, row: PendingRow): Record<string, string> {
  const to = recipientOf(row);
  const service = (rule.custom_services ?? []).find((s) => to && (s.connection === to.value || s.url === to.value));
  return { ...(rule.properties ?? {}), ...(service?.properties ?? {}) };
}

/** The fallback delay in milliseconds (nanoseconds in the database; a duration text is read too). */
export function fallbackDelayMs(rule: Rule): number {
  const d = rule.fallback?.delay;
  if (typeof d === 'number') return d / 1e6;
  if (typeof d === 'string') return (parseDurationNs(d) ?? 0) / 1e6;
  return 0;
}

/** The fallback recipient: under `to`, or inline next to `delay` as mission-control writes it. */
export function fallbackTo(rule: Rule): Record<string, unknown> | undefined {
  const f = rule.fallback as Record<string, unknown> | null;
  if (!f) return undefined;
  const to = (f.to as Record<string, unknown> | undefined) ?? f;
  return ['person', 'team', 'email', 'connection', 'url'].some((k) => typeof to[k] === 'string' && to[k])
    ? to
    : undefined;
}

/** The rule's fallback recipient as rows to insert: a team becomes one row per member with an email. */
export async function fallbackRecipients(db: Queryable, rule: Rule): Promise<FallbackRecipient[]> {
  const to = fallbackTo(rule);
  const text = (k: string) => (typeof to?.[k] === 'string' && to[k] ? (to[k] as string) : undefined);
  if (!to) return [];
  const email = text('email');
  if (email) return [{ kind: 'email', value: email, display: email }];
  const person = text('person');
  if (person)
    return (await personEmails(db, person)).map((p) => ({
      kind: 'email',
      value: p.email,
      display: p.email,
      personId: p.id,
    }));
  const team = text('team');
  if (team)
    return (await teamEmails(db, team)).map((p) => ({
      kind: 'email',
      value: p.email,
      display: p.email,
      personId: p.id,
      teamId: p.team_id,
    }));
  const connection = text('connection');
  if (connection) {
    const name = /^connection:\/\/(?:[^/]+\/)?(.+)$/.exec(connection)?.[1] ?? connection;
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM connections WHERE name = $1 AND deleted_at IS NULL ORDER BY created_at LIMIT 1',
      [name],
    );
    return [{ kind: 'connection', value: connection, display: connection, connectionId: rows[0]?.id }];
  }
  const url = text('url');
  if (url) return [{ kind: 'url', value: url, display: sanitizeUrl(url) }];
  return [];
}
