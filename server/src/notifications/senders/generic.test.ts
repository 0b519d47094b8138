// Generic webhook destinations: generic+http(s):// and generic:// with shoutrrr's query syntax, connections,
// and the JSON or templated body.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import { genericBody, genericFromConnection, genericSender, parseGenericUrl } from './generic.js';

describe('Generic webhook destinations', () => {
  it('splits reserved options, @headers, $fields and forwarded parameters', () => {
    const c = parseGenericUrl(
      'generic+https://hooks.example.com/in?titlekey=subject&messagekey=text&@authorization=Bearer%20x&@acceptLanguage=de&$team=sre&_title=keep&page=2',
    );
    expect(c).toMatchObject({
      url: 'https://hooks.example.com/in?title=keep&page=2',
      method: 'POST',
      contentType: 'application/json',
      titleKey: 'subject',
      messageKey: 'text',
      headers: { Authorization: 'Bearer x', 'Accept-Language': 'de' },
      extra: { team: 'sre' },
    });
    expect(JSON.parse(genericBody(c, testMessage())!)).toEqual({
      team: 'sre',
      subject: 'Check api-health failed',
      text: testMessage().body,
    });
  });

  it('uses https for generic:// unless disabletls=yes, http for generic+http', () => {
    expect(parseGenericUrl('generic://h.example.com/p').url).toBe('https://h.example.com/p');
    expect(parseGenericUrl('generic://h.example.com/p?disabletls=yes').url).toBe('http://h.example.com/p');
    expect(parseGenericUrl('generic+http://127.0.0.1:8/p').url).toBe('http://127.0.0.1:8/p');
  });

  it('renders a body template with the message fields', () => {
    const c = parseGenericUrl(
      'generic+https://h/p?contenttype=text/plain&bodytemplate=' + encodeURIComponent('{{.severity}}: {{.title}}'),
    );
    expect(genericBody(c, testMessage())).toBe('critical: Check api-health failed');
    expect(c.contentType).toBe('text/plain');
  });

  it('rejects bad URLs and templates', () => {
    expectBadDestination(() => parseGenericUrl('generic+ftp://h/p'), /unknown scheme/);
    expectBadDestination(() => parseGenericUrl('generic+https:///p'), /host is missing/);
    expectBadDestination(() => parseGenericUrl('generic+https://h/p?method=DELETE'), /method must be one of/);
    expectBadDestination(() => parseGenericUrl('generic+https://h/p?template=xml'), /not json or a Go template/);
    const broken = parseGenericUrl('generic+https://h/p?bodytemplate=' + encodeURIComponent('{{.title'));
    expectBadDestination(() => genericBody(broken, testMessage()), /body template failed/);
  });

  it('reads a connection: URL, keys, method, Bearer password; describes without credentials or query', () => {
    const c = genericFromConnection({
      name: 'g',
      type: 'webhook',
      url: 'https://u:pw@hooks.example.com/in?token=SECRET',
      username: null,
      password: 'BEARER-SECRET',
      certificate: null,
      insecureTls: true,
      properties: { method: 'PUT', messageKey: 'body', titleKey: 'summary' },
    });
    expect(c).toMatchObject({
      method: 'PUT',
      messageKey: 'body',
      titleKey: 'summary',
      authorization: 'Bearer BEARER-SECRET',
      insecureTls: true,
    });
    expect(genericSender.describe(c)).toBe('generic PUT https://hooks.example.com/in');
  });
});
