// ntfy destinations: ntfy://[user:pass@]host/topic, connections, and the headers sent.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import { ntfyFromConnection, ntfyHeaders, ntfySender, parseNtfyUrl } from './ntfy.js';

describe('ntfy destinations', () => {
  it('reads host, topic, credentials and options; scheme=http for plain HTTP', () => {
    expect(parseNtfyUrl('ntfy://u:p%40ss@ntfy.example.com/alerts?tags=ops&priority=high')).toEqual({
      serverUrl: 'https://ntfy.example.com',
      topic: 'alerts',
      username: 'u',
      password: 'p@ss',
      options: { tags: 'ops', priority: 'high' },
    });
    expect(parseNtfyUrl('ntfy://127.0.0.1:9/t?scheme=http').serverUrl).toBe('http://127.0.0.1:9');
    expect(parseNtfyUrl('ntfy:///t').serverUrl).toBe('https://ntfy.sh');
  });

  it('rejects bad URLs', () => {
    expectBadDestination(() => parseNtfyUrl('ntfy://ntfy.sh/'), /topic is missing/);
    expectBadDestination(() => parseNtfyUrl('ntfy://ntfy.sh/a/b'), /one path segment/);
    expectBadDestination(() => parseNtfyUrl('ntfy://ntfy.sh/a?scheme=ftp'), /scheme must be http or https/);
  });

  it('reads a connection and describes it without the password', () => {
    const c = ntfyFromConnection({
      name: 'n',
      type: 'ntfy',
      url: 'https://ntfy.example.com',
      username: null,
      password: 'tk_secret',
      certificate: null,
      insecureTls: false,
      properties: { topic: 'ops' },
    });
    expect(c).toMatchObject({ serverUrl: 'https://ntfy.example.com', topic: 'ops', password: 'tk_secret' });
    expect(ntfySender.describe(c)).toBe('ntfy https://ntfy.example.com/ops');
    expect(ntfyHeaders(c, testMessage()).authorization).toBe('Bearer tk_secret');
  });

  it('sets Title, Priority from severity, Tags, Click and Markdown; encodes non-ASCII titles', () => {
    const h = ntfyHeaders(parseNtfyUrl('ntfy://u:p@h/t?tags=prod'), testMessage({ title: 'Prüfung failed' }));
    expect(h).toMatchObject({
      title: `=?UTF-8?B?${Buffer.from('Prüfung failed').toString('base64')}?=`,
      priority: '5',
      tags: 'rotating_light,prod',
      click: 'https://opsdeck.example.com/health?checkId=c1',
      markdown: 'yes',
      authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
    });
    expect(ntfyHeaders(parseNtfyUrl('ntfy://h/t?priority=min'), testMessage()).priority).toBe('1');
  });
});
