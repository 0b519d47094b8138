// Test of an email (SMTP) connection: connect, EHLO, STARTTLS or TLS as its encryption says, and AUTH
// with its credentials (nodemailer's verify); no mail is sent.
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { abortable, describeError, liftSocketError } from '../errors.js';
import { prop, required, TestFailure, type ConnectionTester } from './tester.js';

const AUTH_METHODS: Record<string, string> = { Plain: 'PLAIN', Login: 'LOGIN', CRAMMD5: 'CRAM-MD5' };

export const smtpTester: ConnectionTester = {
  types: ['email'],
  async test(conn, ctx) {
    const host = required(prop(conn, 'host'), 'Host');
    const port = Number(prop(conn, 'port') || 587);
    const encryption = prop(conn, 'encryption') || 'Auto';
    const auth = prop(conn, 'auth') || 'Unknown';
    const where = `${host}:${port}`;
    const options: SMTPTransport.Options = {
      host,
      port,
      secure: encryption === 'ImplicitTLS' || (encryption === 'Auto' && port === 465),
      requireTLS: encryption === 'ExplicitTLS',
      ignoreTLS: encryption === 'None',
      tls: { rejectUnauthorized: !conn.insecureTls },
      connectionTimeout: ctx.timeoutMs,
      greetingTimeout: ctx.timeoutMs,
      socketTimeout: ctx.timeoutMs,
      logger: false,
    };
    const withAuth = auth !== 'None' && !!conn.username;
    if (withAuth) {
      options.auth =
        auth === 'OAuth2'
          ? { type: 'OAuth2', user: conn.username!, accessToken: conn.password ?? '' }
          : { user: conn.username!, pass: conn.password ?? '' };
      if (AUTH_METHODS[auth]) options.authMethod = AUTH_METHODS[auth];
    }
    const transport = nodemailer.createTransport(options);
    try {
      await abortable(ctx.signal, transport.verify());
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      const err = e as Error & { code?: string; response?: string };
      if (err.code === 'EAUTH')
        throw new TestFailure(`${where} refused the username or password: ${err.response ?? err.message}`);
      if (err.code === 'ETLS' || /certificate|SSL|TLS/i.test(err.message))
        throw new TestFailure(`TLS failed with ${where}: ${describeError(e, where)}`);
      throw new TestFailure(liftSocketError(err.message) ? `${liftSocketError(err.message)}` : describeError(e, where));
    } finally {
      transport.close();
    }
    return {
      details: `${where} answered EHLO${withAuth ? ` and accepted the login of ${conn.username}` : ' (no authentication)'}; no mail was sent`,
    };
  },
};
