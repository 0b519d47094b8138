// Outgoing mail over SMTP (SMTP_URL). Without SMTP, nothing is sent and callers show links instead.
import nodemailer, { type Transporter } from 'nodemailer';
import { logger } from '../log.js';

const log = logger('mail');

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  readonly enabled: boolean;
  /** Sends a message; resolves false (and logs why) when mail is not configured. */
  send(mail: Mail): Promise<boolean>;
}

export function createMailer(smtpUrl: string | undefined, from: string): Mailer {
  if (!smtpUrl) {
    return {
      enabled: false,
      async send(mail) {
        log.warn(`mail to ${mail.to} not sent ("${mail.subject}"): SMTP_URL is not configured`);
        return false;
      },
    };
  }
  const url = new URL(smtpUrl);
  const transport: Transporter = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    // smtp://host?tls=insecure for test servers with self-signed certificates.
    tls: url.searchParams.get('tls') === 'insecure' ? { rejectUnauthorized: false } : undefined,
    ignoreTLS: url.searchParams.get('tls') === 'off',
  });
  return {
    enabled: true,
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      return true;
    },
  };
}
