// Email destinations: smtp:// URLs, email connections, the server's SMTP_URL, and the transport options.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import {
  emailConfig,
  emailContent,
  emailFromConnection,
  emailSender,
  parseEmailUrl,
  transportOptions,
} from './email.js';

describe('Email destinations', () => {
  it('reads shoutrrr smtp:// URLs', () => {
    expect(
      parseEmailUrl(
        'smtp://bob:p%40ss@mail.example.com:587/?from=ops@example.com&fromName=Ops&to=a@x.io,b@x.io&encryption=ExplicitTLS&auth=Login',
      ),
    ).toMatchObject({
      host: 'mail.example.com',
      port: 587,
      username: 'bob',
      password: 'p@ss',
      from: 'ops@example.com',
      fromName: 'Ops',
      to: ['a@x.io', 'b@x.io'],
      encryption: 'ExplicitTLS',
      auth: 'Login',
    });
    expect(parseEmailUrl('smtp://mail.example.com/?from=a@x&to=b@x').port).toBe(25);
    expect(parseEmailUrl('smtps://mail.example.com/?from=a@x&to=b@x')).toMatchObject({
      port: 465,
      encryption: 'ImplicitTLS',
    });
  });

  it('rejects bad URLs', () => {
    expectBadDestination(() => parseEmailUrl('smtp://mail.example.com/?to=b@x'), /from address is missing/);
    expectBadDestination(() => parseEmailUrl('smtp://mail.example.com/?from=a@x'), /no recipients/);
    expectBadDestination(() => parseEmailUrl('smtp://h/?from=a@x&to=b@x&encryption=SSL'), /encryption must be one of/);
    expectBadDestination(() => parseEmailUrl('smtp://h:99999/?from=a@x&to=b@x'), /not a valid URL|port/);
    expectBadDestination(() => parseEmailUrl('smtp:///?from=a@x&to=b@x'), /host is missing/);
  });

  it("sends to given addresses through the server's SMTP_URL", () => {
    expect(emailConfig('smtp://127.0.0.1:2525?tls=off', 'Opsdeck <ops@x.io>', ['p@x.io'])).toMatchObject({
      host: '127.0.0.1',
      port: 2525,
      from: 'Opsdeck <ops@x.io>',
      to: ['p@x.io'],
      startTls: false,
    });
    expectBadDestination(() => emailConfig(undefined, 'a@x', ['b@x']), /SMTP_URL is not configured/);
  });

  it('reads a connection and maps encryption and auth to nodemailer', () => {
    const c = emailFromConnection({
      name: 'mail',
      type: 'smtp',
      url: null,
      username: 'bob',
      password: 'SECRET',
      certificate: null,
      insecureTls: true,
      properties: {
        host: 'mail.example.com',
        port: '465',
        from: 'ops@x.io',
        fromName: 'Ops',
        encryption: 'ImplicitTLS',
        auth: 'Plain',
        to: 'a@x.io',
      },
    });
    expect(transportOptions(c, 5000)).toMatchObject({
      host: 'mail.example.com',
      port: 465,
      secure: true,
      auth: { user: 'bob', pass: 'SECRET' },
      authMethod: 'PLAIN',
      tls: { rejectUnauthorized: false },
      connectionTimeout: 5000,
    });
    expect(emailSender.describe(c)).toBe('email to a@x.io via mail.example.com:465');
    expect(emailSender.describe(c)).not.toContain('SECRET');
  });

  it('writes HTML with a link button and a text part', () => {
    const content = emailContent(parseEmailUrl('smtp://h/?from=a@x&to=b@x'), testMessage());
    expect(content.subject).toBe('Check api-health failed');
    expect(content.html).toContain('<p><strong>api-health</strong> is <em>down</em></p>');
    expect(content.html).toContain('<a href="https://opsdeck.example.com/health?checkId=c1"');
    expect(content.text).toBe(
      'api-health is down: 503 from the endpoint (https://api.example.com/health)\n\nOpen in Opsdeck: https://opsdeck.example.com/health?checkId=c1',
    );
  });
});
