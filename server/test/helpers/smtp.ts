// A real SMTP server on loopback that keeps what it receives, for tests that read delivered mail.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** Every http(s) URL in the message, decoded from quoted-printable. */
  links: string[];
}

export interface SmtpSink {
  url: string;
  messages: ReceivedMail[];
  /** Waits for a message to this address (and matching subject), up to 10 s. */
  waitFor(to: string, subject?: RegExp): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

export interface SmtpSinkOptions {
  /** Username → password: AUTH (PLAIN/LOGIN, without TLS) is then required and checked. */
  users?: Record<string, string>;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const { users } = options;
  const server = new SMTPServer({
    authOptional: !users,
    ...(users && {
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth(auth, _session, callback) {
        if (users[auth.username ?? ''] === auth.password) callback(null, { user: auth.username });
        else callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
      },
    }),
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (raw += d));
      stream.on('end', () => {
        const text = decodeQuotedPrintable(raw);
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: text,
          subject: /^Subject: (.*)$/m.exec(text)?.[1]?.trim() ?? '',
          links: [...text.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0]),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?tls=off`,
    messages,
    async waitFor(to, subject) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = messages.find((m) => m.to.includes(to) && (!subject || subject.test(m.subject)));
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(
            `no mail to ${to} within 10 s (got ${messages.map((m) => `${m.to} "${m.subject}"`).join(', ') || 'none'})`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
