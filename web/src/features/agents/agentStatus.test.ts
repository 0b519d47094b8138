import { describe, expect, it } from 'vitest';
import { agentStatus } from './agentStatus';

const now = Date.parse('2026-11-26T10:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('agentStatus', () => {
  it('is Online while the last ping is at most 61 seconds old', () => {
    expect(agentStatus(ago(0), now)).toBe('Online');
    expect(agentStatus(ago(60_000), now)).toBe('Online');
    expect(agentStatus(ago(61_000), now)).toBe('Online');
  });

  it('is Offline once the last ping is older than 61 seconds', () => {
    expect(agentStatus(ago(61_001), now)).toBe('Offline');
    expect(agentStatus(ago(3_600_000), now)).toBe('Offline');
  });

  it('shows nothing for an agent that never pinged or an unreadable time', () => {
    expect(agentStatus(null, now)).toBeUndefined();
    expect(agentStatus(undefined, now)).toBeUndefined();
    expect(agentStatus('', now)).toBeUndefined();
    expect(agentStatus('yesterday-ish', now)).toBeUndefined();
  });
});
