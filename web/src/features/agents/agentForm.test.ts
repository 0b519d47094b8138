import { describe, expect, it } from 'vitest';
import {
  AGENT_NAME_MESSAGE,
  agentFormSchema,
  agentLabels,
  agentToForm,
  emptyAgentForm,
  formToProperties,
  REQUIRED,
} from './agentForm';

const messages = (values: unknown) => {
  const result = agentFormSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the agent form', () => {
  it('starts empty with Kubernetes and telemetry off and a 30m interval', () => {
    expect(emptyAgentForm()).toEqual({
      name: '',
      properties: [{ key: '', value: '' }],
      kubernetes: { enabled: false, interval: '30m' },
      pushTelemetry: { enabled: false, topologyName: '' },
    });
  });

  it('requires a name and a key for every value, and a topology name when telemetry is pushed', () => {
    const values = {
      ...emptyAgentForm(),
      name: '  ',
      properties: [
        { key: '', value: 'orphan' },
        { key: '', value: '' },
      ],
      pushTelemetry: { enabled: true, topologyName: '' },
    };
    expect(messages(values)).toEqual([
      `name: ${REQUIRED}`,
      `properties.0.key: ${REQUIRED}`,
      `pushTelemetry.topologyName: ${REQUIRED}`,
    ]);
  });

  it('refuses duplicate keys and the keys the form itself writes', () => {
    const values = {
      ...emptyAgentForm(),
      name: 'edge',
      properties: [
        { key: 'site', value: 'a' },
        { key: 'site', value: 'b' },
        { key: 'kubernetes.enabled', value: 'x' },
      ],
    };
    expect(messages(values)).toEqual([
      'properties.1.key: Duplicate key site',
      'properties.2.key: kubernetes.enabled is set by the form',
    ]);
  });

  it('stores labels and the install options in properties and reads them back', () => {
    const values = {
      name: 'edge-1',
      properties: [
        { key: ' site ', value: ' berlin ' },
        { key: '', value: '' },
      ],
      kubernetes: { enabled: true, interval: '5m' as const },
      pushTelemetry: { enabled: true, topologyName: 'edge-topology' },
    };
    const properties = formToProperties(values);
    expect(properties).toEqual({
      site: 'berlin',
      'kubernetes.enabled': 'true',
      'kubernetes.interval': '5m',
      'pushTelemetry.enabled': 'true',
      'pushTelemetry.topologyName': 'edge-topology',
    });
    expect(agentToForm({ name: 'edge-1', properties })).toEqual({
      name: 'edge-1',
      properties: [{ key: 'site', value: 'berlin' }],
      kubernetes: { enabled: true, interval: '5m' },
      pushTelemetry: { enabled: true, topologyName: 'edge-topology' },
    });
    expect(agentLabels(properties)).toEqual([['site', 'berlin']]);
  });

  it('reads an agent made elsewhere (no properties, an unknown interval) with the defaults', () => {
    expect(agentToForm({ name: 'x', properties: null })).toEqual({ ...emptyAgentForm(), name: 'x' });
    expect(agentToForm({ name: 'x', properties: { 'kubernetes.interval': '7m' } }).kubernetes.interval).toBe('30m');
  });
});

describe('agent names', () => {
  it('take the letters, digits, dots, underscores and hyphens the server accepts, up to 63, not leading with a symbol', () => {
    const named = (name: string) => messages({ ...emptyAgentForm(), name });
    expect(named('edge-1.berlin_a')).toEqual([]);
    expect(named('x'.repeat(63))).toEqual([]);
    expect(named('x'.repeat(64))).toEqual([`name: ${AGENT_NAME_MESSAGE}`]);
    expect(named('edge site')).toEqual([`name: ${AGENT_NAME_MESSAGE}`]);
    expect(named('-edge')).toEqual([`name: ${AGENT_NAME_MESSAGE}`]);
  });
});
