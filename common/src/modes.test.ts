import { describe, expect, it } from 'vitest';
import { FEATURES } from './features.js';
import { featureAbsent, isMode, resourceAbsent } from './modes.js';

describe('deployment modes', () => {
  it('keeps every feature in full mode', () => {
    expect(FEATURES.filter((f) => featureAbsent('full', f))).toEqual([]);
    expect(featureAbsent(undefined, 'topology')).toBe(false);
  });

  it('keeps health, its settings, identity, connections and notifications in health mode', () => {
    const kept = FEATURES.filter((f) => !featureAbsent('health', f));
    expect(kept).toEqual([
      'health',
      'agents',
      'settings.connections',
      'settings.users',
      'settings.teams',
      'settings.health',
      'settings.job_history',
      'settings.feature_flags',
      'settings.event_queue_status',
      'settings.notifications',
    ]);
    expect(featureAbsent('health', 'settings.topology')).toBe(true); // through its parent
    expect(resourceAbsent('health', 'config_scrapers')).toBe(true);
    expect(resourceAbsent('health', 'canaries')).toBe(false);
    expect(resourceAbsent('health', 'identities')).toBe(false);
  });

  it('reads mode names', () => {
    expect(isMode('health')).toBe(true);
    expect(isMode('catalog')).toBe(false);
  });
});
