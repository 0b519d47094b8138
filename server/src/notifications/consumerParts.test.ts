import { describe, expect, it } from 'vitest';
import { eventKind, permalinkOf, type EventResource } from './context.js';
import { isStateChange } from './flapping.js';
import { groupKey, groupValue } from './grouping.js';
import { DEFAULT_FLAP_WINDOW_MS, DEFAULT_FLAPS, ruleFromRow } from './rules.js';
import { silenceReason } from './silences.js';

const check: EventResource = {
  kind: 'check',
  id: 'c1',
  name: 'checkout',
  type: 'http',
  namespace: 'prod',
  health: 'unhealthy',
  status: 'unhealthy',
  labels: { service: 'payments' },
  tags: { cluster: 'eu' },
  ancestors: [],
  canaryId: 'k1',
  componentIds: ['b', 'a'],
  snapshot: {},
};

describe('notification consumer parts', () => {
  it('links each resource kind to its console page', () => {
    expect(permalinkOf('https://ops.example.com/', 'check', 'c1')).toBe('https://ops.example.com/health?checkId=c1');
    expect(permalinkOf('https://ops.example.com', 'component', 'x')).toBe('https://ops.example.com/topology/x');
    expect(permalinkOf('https://ops.example.com', 'config', 'x')).toBe('https://ops.example.com/catalog/x');
    expect(permalinkOf('https://ops.example.com', 'incident', 'x')).toBe('https://ops.example.com/incidents/x');
    expect(permalinkOf('https://ops.example.com', 'playbook_run', 'x')).toBe(
      'https://ops.example.com/playbooks/runs/x',
    );
  });

  it('reads the resource kind from the event name', () => {
    expect(eventKind('check.failed')).toBe('check');
    expect(eventKind('incident.status.resolved')).toBe('incident');
    expect(eventKind('playbook.run.failed')).toBe('playbook_run');
    expect(eventKind('playbook.approval.inserted')).toBe('playbook_run');
    expect(eventKind('playbook.spec.approval.updated')).toBeUndefined();
  });

  it('counts only state changes for flap damping', () => {
    expect(isStateChange('check.failed')).toBe(true);
    expect(isStateChange('component.warning')).toBe(true);
    expect(isStateChange('config.unhealthy')).toBe(true);
    expect(isStateChange('config.updated')).toBe(false);
    expect(isStateChange('incident.created')).toBe(false);
  });

  it('groups by resource fields, labels and tags', () => {
    expect(groupValue(check, 'label:service')).toBe('payments');
    expect(groupValue(check, 'tag:cluster')).toBe('eu');
    expect(groupValue(check, 'component')).toBe('a,b');
    expect(groupValue(check, 'namespace')).toBe('prod');
    expect(groupKey(['type'], check, 'check.failed', 'ops@x')).toBe(
      groupKey(['type'], { ...check, name: 'other' }, 'check.failed', 'ops@x'),
    );
    expect(groupKey(['name'], check, 'check.failed', 'ops@x')).not.toBe(
      groupKey(['name'], { ...check, name: 'other' }, 'check.failed', 'ops@x'),
    );
  });

  it('reads a rule row: durations in ns, flapping from the spec with defaults, inhibitions with defaults', () => {
    const rule = ruleFromRow({
      id: 'r',
      name: 'n',
      events: ['check.failed'],
      repeat_interval: 3600e9,
      wait_for: null,
      inhibitions: [{ from: ['database'], to: ['check'] }],
      spec: { spec: { flapping: { flaps: 3, window: '5m' } } },
    });
    expect(rule.repeatIntervalMs).toBe(3600_000);
    expect(rule.waitForMs).toBeNull();
    expect(rule.flapping).toEqual({ flaps: 3, windowMs: 300_000 });
    expect(rule.inhibitions).toEqual([{ direction: 'all', depth: 5, soft: false, from: ['database'], to: ['check'] }]);
    // mission-control's `inhibit` names one `from` type.
    expect(
      ruleFromRow({
        id: 'r',
        name: 'n',
        events: [],
        inhibitions: [{ from: 'Kubernetes::Node', to: ['Kubernetes::Pod'] }],
      }).inhibitions[0]!.from,
    ).toEqual(['Kubernetes::Node']);
    expect(ruleFromRow({ id: 'r', name: 'n', events: [] }).flapping).toEqual({
      flaps: DEFAULT_FLAPS,
      windowMs: DEFAULT_FLAP_WINDOW_MS,
    });
  });

  it('says which silence held a notification and until when', () => {
    const until = new Date('2030-01-01T00:00:00Z');
    expect(silenceReason({ id: 's', description: 'deploy', name: null, until, filter: null })).toBe(
      'Silenced by "deploy" until 2030-01-01T00:00:00.000Z',
    );
    expect(silenceReason({ id: 's', description: ' ', name: null, until, filter: null })).toMatch(/^Silenced by "s"/);
  });
});
