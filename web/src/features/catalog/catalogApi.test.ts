import { describe, expect, it } from 'vitest';
import { listConditions } from './catalogApi';

describe('catalog list conditions', () => {
  it('narrows to items without an agent for the local filter, and to nothing extra otherwise', () => {
    expect(listConditions('', {}, 'local')).toBe(
      '(or(agent_id.is.null,agent_id.eq.00000000-0000-0000-0000-000000000000))',
    );
    expect(listConditions('', {}, 'all')).toBeUndefined();
    expect(listConditions('', {}, '1b4e28ba-2fa1-11d2-883f-0016d3cca427')).toBeUndefined();
  });
});
