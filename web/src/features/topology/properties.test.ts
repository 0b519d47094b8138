import { describe, expect, it } from 'vitest';
import { CARD_SIZES, clampCardWidth, isCardWidth, viewCardWidth } from './cardSize';
import {
  avatarStack,
  barTone,
  bodyProperties,
  formatBytes,
  formatProperty,
  headlineProperties,
  initials,
  isUsageProperty,
  usagePercent,
  visibleRows,
} from './properties';

describe('component properties', () => {
  it('formats text, plain numbers, units, bytes, millicores and a maximum', () => {
    expect(formatProperty({ name: 'version', text: 'v1.2' })).toBe('v1.2');
    expect(formatProperty({ name: 'replicas', value: 3 })).toBe('3');
    expect(formatProperty({ name: 'latency', value: 12.345, unit: 'ms' })).toBe('12.35 ms');
    expect(formatProperty({ name: 'memory', value: 512 * 1024 * 1024, max: 2 * 1024 ** 3, unit: 'bytes' })).toBe(
      '512MiB / 2GiB',
    );
    expect(formatProperty({ name: 'cpu', value: 250, max: 2000, unit: 'millicores' })).toBe('250m / 2');
    expect(formatProperty({ name: 'ratio', value: 42, unit: '%' })).toBe('42%');
    expect(formatProperty({ name: 'empty' })).toBe('');
    expect(formatBytes(1536)).toBe('1.5KiB');
  });

  it('splits headline properties from the body, ordered', () => {
    const props = [
      { name: 'b', order: 2 },
      { name: 'rps', headline: true },
      { name: 'a', order: 1 },
    ];
    expect(headlineProperties(props).map((p) => p.name)).toEqual(['rps']);
    expect(bodyProperties(props).map((p) => p.name)).toEqual(['a', 'b']);
  });

  it('shows CPU and memory as bars that turn red above 70% of the maximum', () => {
    expect(usagePercent({ name: 'cpu', value: 70, max: 100 })).toBe(70);
    expect(barTone(70)).toBe('normal');
    expect(barTone(70.5)).toBe('red');
    expect(usagePercent({ name: 'memory', value: 3, max: 4 })).toBe(75);
    expect(usagePercent({ name: 'cpu', value: 150, max: 100 })).toBe(100);
    expect(usagePercent({ name: 'cpu', value: 5 })).toBeUndefined();
    expect(usagePercent({ name: 'cpu', value: 5, max: 0 })).toBeUndefined();
    expect(isUsageProperty({ name: 'CPU' })).toBe(true);
    expect(isUsageProperty({ name: 'memory' })).toBe(true);
    expect(isUsageProperty({ name: 'disk' })).toBe(false);
  });

  it('collapses lists longer than 6 to 5 rows until expanded', () => {
    expect(visibleRows(5, false)).toBe(5);
    expect(visibleRows(6, false)).toBe(6);
    expect(visibleRows(7, false)).toBe(5);
    expect(visibleRows(40, true)).toBe(40);
  });

  it('stacks at most 5 avatars and counts the rest', () => {
    expect(avatarStack([1, 2, 3])).toEqual({ shown: [1, 2, 3], more: 0 });
    expect(avatarStack([1, 2, 3, 4, 5, 6, 7])).toEqual({ shown: [1, 2, 3, 4, 5], more: 2 });
    expect(initials('site reliability')).toBe('SR');
    expect(initials('ops')).toBe('OP');
  });
});

describe('card widths', () => {
  it('keeps the slider between 250 and 768 px in steps of 2', () => {
    expect(clampCardWidth(100)).toBe(250);
    expect(clampCardWidth(1000)).toBe(768);
    expect(clampCardWidth(301)).toBe(302);
    expect(clampCardWidth('400')).toBe(400);
    expect(clampCardWidth('wide')).toBe(356);
    expect(isCardWidth(300)).toBe(true);
    expect(isCardWidth(301)).toBe(false);
  });

  it('sizes the read-only card by name or pixels', () => {
    expect(CARD_SIZES).toEqual({ small: 198, medium: 258, large: 356, 'extra-large': 554 });
    expect(viewCardWidth(null)).toBe(258);
    expect(viewCardWidth('small')).toBe(198);
    expect(viewCardWidth('extra large')).toBe(554);
    expect(viewCardWidth('xl')).toBe(554);
    expect(viewCardWidth('400px')).toBe(400);
    expect(viewCardWidth('5000')).toBe(768);
    expect(viewCardWidth('nonsense')).toBe(258);
  });
});
