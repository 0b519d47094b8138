// Rendering a notification: defaults per event kind, the rule's templates, groups, resolve state.
import { describe, expect, it } from 'vitest';
import { messageState, renderMessage, type RenderRow, type RenderRule } from './render.js';

const rule = (over: Partial<RenderRule> = {}): RenderRule => ({
  id: 'r1',
  title: null,
  template: null,
  events: ['check.failed'],
  properties: null,
  ...over,
});

const checkRow = (name = 'api-health', over: Partial<RenderRow> = {}): RenderRow => ({
  source_event: 'check.failed',
  resource_id: '00000000-0000-4000-8000-000000000001',
  resource_type: 'check',
  resource: { name, status: 'unhealthy' },
  dedup_key: 'r1:00000000-0000-4000-8000-000000000001',
  body_payload: {
    check: { name, type: 'http', description: '<script>x</script>', labels: { team: 'payments' } },
    canary: { name: 'prod', namespace: 'default' },
    event: { name: 'check.failed', properties: { error: 'connection refused' } },
    permalink: 'https://opsdeck.test/health?checkId=1',
    recipient: { kind: 'url', value: 'slack://secret-token@ops' },
  },
  ...over,
});

describe('renderMessage', () => {
  it('gives a failed check a default title and a body with the error, labels and link', () => {
    const m = renderMessage(rule(), checkRow());
    expect(m.title).toBe('Check api-health has failed');
    expect(m.body).toContain('**Error:** connection refused');
    expect(m.body).toContain('`team=payments`');
    expect(m.body).toContain('[View check in Opsdeck](https://opsdeck.test/health?checkId=1)');
    expect(m.html).toContain('<strong>Error:</strong> connection refused');
    expect(m.html).toContain('<a href="https://opsdeck.test/health?checkId=1">');
    expect(m.html).not.toContain('<script');
    expect(m.state).toBe('firing');
    expect(m.severity).toBe('error');
    expect(m.dedupKey).toBe('r1:00000000-0000-4000-8000-000000000001');
  });

  it("renders the rule's Go templates and keeps the recipient's secret out of reach", () => {
    const m = renderMessage(
      rule({ title: '{{.check.name}} down', template: 'canary {{.canary.name}} {{.recipient}}' }),
      checkRow(),
    );
    expect(m.title).toBe('api-health down');
    expect(m.body).toBe('canary prod <no value>');
  });

  it('names every member of a group in one message', () => {
    const members = ['b', 'c'].map((name) => ({ name, status: 'unhealthy' }));
    const m = renderMessage(rule(), checkRow('a'), members);
    expect(m.title).toBe('3 checks failed: a, b, c');
    expect(m.body).toContain('Grouped with this notification (3)');
    expect(m.body).toContain('- c — unhealthy');
  });

  it('resolves a recovery only when the rule also sends the failure', () => {
    expect(messageState('check.passed', ['check.failed', 'check.passed'])).toBe('resolved');
    expect(messageState('check.passed', ['check.passed'])).toBe('firing');
    expect(messageState('component.healthy', ['component.unhealthy', 'component.healthy'])).toBe('resolved');
    expect(messageState('check.failed', ['check.failed', 'check.passed'])).toBe('firing');
  });
});
