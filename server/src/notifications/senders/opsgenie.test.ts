// Opsgenie destinations: opsgenie://[host]/apiKey?responders=…, connections, and the alert body.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import {
  opsgenieAlert,
  opsgenieFromConnection,
  opsgenieSender,
  parseOpsgenieUrl,
  parseResponders,
} from './opsgenie.js';

describe('Opsgenie destinations', () => {
  it('reads host, API key and options', () => {
    expect(parseOpsgenieUrl('opsgenie://api.eu.opsgenie.com/key-123?responders=team:sre&tags=a,b')).toEqual({
      apiUrl: 'https://api.eu.opsgenie.com',
      apiKey: 'key-123',
      options: { responders: 'team:sre', tags: 'a,b' },
    });
    expect(parseOpsgenieUrl('opsgenie:///k').apiUrl).toBe('https://api.opsgenie.com');
  });

  it('parses responders as ids, names and usernames', () => {
    expect(parseResponders('team:sre, user:a@b.c, schedule:4513b7ea-3b91-438f-b7e4-e3e54af9147c')).toEqual([
      { type: 'team', name: 'sre' },
      { type: 'user', username: 'a@b.c' },
      { type: 'schedule', id: '4513b7ea-3b91-438f-b7e4-e3e54af9147c' },
    ]);
  });

  it('rejects bad URLs', () => {
    expectBadDestination(() => parseOpsgenieUrl('opsgenie://api.opsgenie.com/'), /API key is missing/);
    expectBadDestination(() => parseOpsgenieUrl('opsgenie://h/k?responders=crew:x'), /type:name with type team/);
  });

  it('reads a connection (host as a URL for a test server); describes without the key', () => {
    const c = opsgenieFromConnection({
      name: 'og',
      type: 'opsgenie',
      url: null,
      username: null,
      password: 'GENIE-SECRET',
      certificate: null,
      insecureTls: false,
      properties: { host: 'http://127.0.0.1:3', port: '443', responders: 'team:sre' },
    });
    expect(c).toEqual({ apiUrl: 'http://127.0.0.1:3', apiKey: 'GENIE-SECRET', options: { responders: 'team:sre' } });
    expect(opsgenieSender.describe(c)).toBe('opsgenie http://127.0.0.1:3 responders team:sre');
  });

  it('creates the alert with alias = dedupKey and priority by severity', () => {
    const alert = opsgenieAlert(parseOpsgenieUrl('opsgenie:///k?responders=team:sre&details=env:prod'), testMessage());
    expect(alert).toMatchObject({
      message: 'Check api-health failed',
      alias: 'rule-1:check-c1',
      priority: 'P1',
      responders: [{ type: 'team', name: 'sre' }],
      details: { env: 'prod', permalink: 'https://opsdeck.example.com/health?checkId=c1', resourceType: 'check' },
      entity: 'api-health',
      source: 'Opsdeck',
    });
  });
});
