// Email delivers for real: to the in-process SMTP sink through the server's SMTP_URL and smtp:// URLs,
// and to an SMTP server that authenticates and refuses some recipients: a 5xx reply and a failed login
// are final, a 4xx reply and a refused connection are retried, and no error shows the password.
import { SMTPServer, type SMTPServerAuthentication } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  destinationForConnection,
  destinationForUrl,
  emailConfig,
  senderForUrl,
} from '../src/notifications/senders/index.js';
import { startHttpReceiver } from './helpers/http-receiver.js';
import { testMessage } from './helpers/notification-message.js';
import { sendContext, sendFailure, testConnection } from './helpers/notification-channels.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp.js';

describe('Email', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it("mails given addresses through the server's SMTP_URL, HTML and text", async () => {
    const sender = senderForUrl('smtp://x');
    const config = emailConfig(sink.url, 'Opsdeck <ops@example.com>', ['p1@example.com', 'p2@example.com']);
    const result = await sender.send(config, testMessage(), sendContext());
    const mail = await sink.waitFor('p1@example.com', /api-health/);
    expect(mail.from).toBe('ops@example.com');
    expect(mail.to).toEqual(['p1@example.com', 'p2@example.com']);
    expect(mail.subject).toBe('Check api-health failed');
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.raw).toContain('<strong>api-health</strong>');
    expect(mail.links).toContain('https://opsdeck.example.com/health?checkId=c1');
    expect(result.response).toMatchObject({ accepted: ['p1@example.com', 'p2@example.com'], rejected: [] });
  });

  it('reads from, fromName and to of an smtp:// URL', async () => {
    const smtpPort = new URL(sink.url).port;
    const { sender, config } = destinationForUrl(
      `smtp://127.0.0.1:${smtpPort}/?from=alerts@example.com&fromName=Ops%20Alerts&to=oncall@example.com&encryption=None`,
    );
    await sender.send(config, testMessage({ title: 'Disk almost full' }), sendContext());
    const mail = await sink.waitFor('oncall@example.com', /Disk almost full/);
    expect(mail.raw).toMatch(/^From: Ops Alerts <alerts@example\.com>$/m);
  });

  describe('against a server that authenticates and refuses some recipients', () => {
    let server: SMTPServer;
    let smtpPort = 0;
    const users: string[] = [];
    beforeAll(async () => {
      server = new SMTPServer({
        authOptional: false,
        allowInsecureAuth: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onAuth(auth: SMTPServerAuthentication, _session, cb) {
          if (auth.username === 'bob' && auth.password === 'SmtpSecret1') {
            users.push(auth.username);
            cb(null, { user: auth.username });
          } else cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
        },
        onRcptTo(address, _session, cb) {
          if (address.address === 'nobody@example.com')
            return cb(Object.assign(new Error('No such user'), { responseCode: 550 }));
          if (address.address === 'later@example.com')
            return cb(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
          cb();
        },
        onData(stream, _session, cb) {
          stream.resume();
          stream.on('end', () => cb());
        },
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      smtpPort = (server.server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const mailConnection = (password: string, to: string) =>
      testConnection({
        type: 'email',
        username: 'bob',
        password,
        properties: {
          host: '127.0.0.1',
          port: String(smtpPort),
          from: 'ops@example.com',
          fromName: 'Opsdeck',
          encryption: 'None',
          auth: 'Plain',
          to,
        },
      });

    it('logs in with the connection credentials and delivers', async () => {
      const { sender, config } = destinationForConnection(mailConnection('SmtpSecret1', 'a@example.com'));
      const result = await sender.send(config, testMessage(), sendContext());
      expect(users).toContain('bob');
      expect(result.response).toMatchObject({ accepted: ['a@example.com'] });
    });

    it('a refused recipient (550) is final, a busy one (451) is retried', async () => {
      const refused = destinationForConnection(mailConnection('SmtpSecret1', 'nobody@example.com'));
      const final = await sendFailure(refused.sender.send(refused.config, testMessage(), sendContext()));
      expect(final.retryable).toBe(false);
      expect(final.message).toMatch(/No such user/);
      const busy = destinationForConnection(mailConnection('SmtpSecret1', 'later@example.com'));
      const later = await sendFailure(busy.sender.send(busy.config, testMessage(), sendContext()));
      expect(later.retryable).toBe(true);
      expect(later.message).toMatch(/Mailbox busy/);
    });

    it('a failed login is final and does not show the password', async () => {
      const { sender, config } = destinationForConnection(mailConnection('WrongSecret9', 'a@example.com'));
      const err = await sendFailure(sender.send(config, testMessage(), sendContext()));
      expect(err.message).toMatch(/^email: EAUTH: /);
      expect(err.message).not.toContain('WrongSecret9');
      expect(err.retryable).toBe(false);
    });

    it('a server that does not answer is retryable', async () => {
      const closed = await startHttpReceiver();
      await closed.close();
      const { sender, config } = destinationForUrl(
        `smtp://127.0.0.1:${new URL(closed.url).port}/?from=a@example.com&to=b@example.com`,
      );
      const err = await sendFailure(sender.send(config, testMessage(), sendContext()));
      expect(err.message).toMatch(/ECONNREFUSED|ECONNECTION/);
      expect(err.retryable).toBe(true);
    });
  });
});
