// Test helpers for the notification senders' tests: a message factory and an assertion for rejected destinations.
import { expect } from 'vitest';
import { SenderError, type NotificationMessage } from '../../src/notifications/senders/sender.js';

export function testMessage(overrides: Partial<NotificationMessage> = {}): NotificationMessage {
  return {
    title: 'Check api-health failed',
    body: '**api-health** is *down*: `503` from [the endpoint](https://api.example.com/health)',
    html: '<p><strong>api-health</strong> is <em>down</em></p>',
    permalink: 'https://opsdeck.example.com/health?checkId=c1',
    state: 'firing',
    severity: 'critical',
    dedupKey: 'rule-1:check-c1',
    resource: { type: 'check', id: 'c1', name: 'api-health' },
    properties: {},
    ...overrides,
  };
}

/** Expects `fn` to throw a SenderError that is not retried, its message matching `pattern`. */
export function expectBadDestination(fn: () => unknown, pattern: RegExp): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, 'expected a SenderError').toBeInstanceOf(SenderError);
  expect((thrown as SenderError).retryable).toBe(false);
  expect((thrown as SenderError).message).toMatch(pattern);
}
