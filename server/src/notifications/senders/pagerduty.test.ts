// PagerDuty destinations: pagerduty://[host]/key and ?integrationKey=, connections, and the events.
import { describe, expect, it } from 'vitest';
import { expectBadDestination, testMessage } from '../../../test/helpers/notification-message.js';
import { pagerDutyEvent, pagerDutyFromConnection, pagerDutySender, parsePagerDutyUrl } from './pagerduty.js';

const KEY = 'eb243592faa24ba2a5511afdf565c889';

describe('PagerDuty destinations', () => {
  it('reads the key from the path or the integrationKey parameter', () => {
    expect(parsePagerDutyUrl(`pagerduty:///${KEY}?severity=warning`)).toEqual({
      eventsUrl: 'https://events.pagerduty.com',
      routingKey: KEY,
      options: { severity: 'warning' },
    });
    expect(parsePagerDutyUrl(`pagerduty://events.eu.pagerduty.com/?integrationKey=${KEY}`)).toMatchObject({
      eventsUrl: 'https://events.eu.pagerduty.com',
      routingKey: KEY,
    });
    expect(parsePagerDutyUrl(`pagerduty:///?integrationKey=${KEY}&baseUrl=http://127.0.0.1:6`).eventsUrl).toBe(
      'http://127.0.0.1:6',
    );
  });

  it('rejects bad URLs', () => {
    expectBadDestination(() => parsePagerDutyUrl('pagerduty:///'), /integration key is missing/);
    expectBadDestination(() => parsePagerDutyUrl('pagerduty:///a-b'), /letters and digits/);
    expectBadDestination(() => parsePagerDutyUrl(`pagerduty:///${KEY}?severity=high`), /severity must be one of/);
  });

  it('reads a connection; describes without the key', () => {
    const c = pagerDutyFromConnection({
      name: 'pd',
      type: 'pagerduty',
      url: null,
      username: null,
      password: KEY,
      certificate: null,
      insecureTls: false,
      properties: { severity: 'error' },
    });
    expect(pagerDutySender.describe(c)).toBe('pagerduty events https://events.pagerduty.com');
    expect(pagerDutySender.describe(c)).not.toContain(KEY);
  });

  it('triggers with payload and links, resolves by dedup_key', () => {
    const config = parsePagerDutyUrl(`pagerduty:///${KEY}`);
    expect(pagerDutyEvent(config, testMessage())).toMatchObject({
      routing_key: KEY,
      event_action: 'trigger',
      dedup_key: 'rule-1:check-c1',
      payload: {
        summary: 'Check api-health failed',
        source: 'api-health',
        severity: 'critical',
        component: 'api-health',
        custom_details: { body: testMessage().body, resource_type: 'check', resource_id: 'c1' },
      },
      links: [{ href: 'https://opsdeck.example.com/health?checkId=c1', text: 'Open in Opsdeck' }],
    });
    expect(pagerDutyEvent(config, testMessage({ state: 'resolved' }))).toEqual({
      routing_key: KEY,
      event_action: 'resolve',
      dedup_key: 'rule-1:check-c1',
    });
  });
});
