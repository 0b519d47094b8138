import { describe, expect, it } from 'vitest';
import { agentIdOf, agentNameSchema, isFromAgent, matchesAgent, NO_AGENT, readAgentFilter } from './agents.js';

const A = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';

describe('agent name', () => {
  it('accepts 1-63 letters, digits, ".", "_" or "-" starting with a letter or digit', () => {
    expect(agentNameSchema.safeParse('edge-1.eu_west').success).toBe(true);
    expect(agentNameSchema.safeParse('a'.repeat(63)).success).toBe(true);
    expect(agentNameSchema.safeParse('a'.repeat(64)).success).toBe(false);
    expect(agentNameSchema.safeParse('-edge').success).toBe(false);
    expect(agentNameSchema.safeParse('edge 1').success).toBe(false);
    expect(agentNameSchema.safeParse('').success).toBe(false);
  });
});

describe('agent filter', () => {
  it('reads all, local and agent ids from the URL', () => {
    expect(readAgentFilter(null)).toBe('all');
    expect(readAgentFilter('junk')).toBe('all');
    expect(readAgentFilter('local')).toBe('local');
    expect(readAgentFilter(NO_AGENT)).toBe('local');
    expect(readAgentFilter(A.toUpperCase())).toBe(A);
  });
  it('maps to an agent_id', () => {
    expect(agentIdOf('all')).toBeUndefined();
    expect(agentIdOf('local')).toBe(NO_AGENT);
    expect(agentIdOf(A)).toBe(A);
  });
  it('matches rows, null and NO_AGENT being local', () => {
    expect(matchesAgent(null, 'local')).toBe(true);
    expect(matchesAgent(NO_AGENT, 'local')).toBe(true);
    expect(matchesAgent(A, 'local')).toBe(false);
    expect(matchesAgent(A, A)).toBe(true);
    expect(matchesAgent(null, A)).toBe(false);
    expect(matchesAgent(A, 'all')).toBe(true);
    expect(isFromAgent(NO_AGENT)).toBe(false);
    expect(isFromAgent(A)).toBe(true);
  });
});
