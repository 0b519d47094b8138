import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentOptionsFrom } from './agentMode.js';

const base = { upstream: 'http://upstream.test:8080', token: 'odk_x' };

describe('opsdeck agent options', () => {
  it('takes the directory of resources from --config-dir, else OPSDECK_AGENT_CONFIG_DIR, as an absolute path', () => {
    expect(agentOptionsFrom({ ...base, 'config-dir': 'resources' }, {}).configDir).toBe(path.resolve('resources'));
    expect(agentOptionsFrom(base, { OPSDECK_AGENT_CONFIG_DIR: '/etc/opsdeck-agent/resources' }).configDir).toBe(
      '/etc/opsdeck-agent/resources',
    );
    expect(agentOptionsFrom({ ...base, 'config-dir': '/flag' }, { OPSDECK_AGENT_CONFIG_DIR: '/env' }).configDir).toBe(
      '/flag',
    );
  });

  it('watches no directory when neither is given (or the variable is empty)', () => {
    expect(agentOptionsFrom(base, {}).configDir).toBeUndefined();
    expect(agentOptionsFrom(base, { OPSDECK_AGENT_CONFIG_DIR: '' }).configDir).toBeUndefined();
  });
});
