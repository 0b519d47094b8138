import { describe, expect, it } from 'vitest';
import {
  activeTriStates,
  cycleTriState,
  decodeTriStateJson,
  decodeTriStateList,
  encodeTriStateJson,
  encodeTriStateList,
  triStateSplit,
} from './triState.js';

describe('tri-state filters', () => {
  it('cycles none → include → exclude → none', () => {
    expect(cycleTriState(0)).toBe(1);
    expect(cycleTriState(1)).toBe(-1);
    expect(cycleTriState(-1)).toBe(0);
  });

  it("drops unset values and 'all'", () => {
    expect(activeTriStates({ SUCCESS: -1, FAILED: 0, all: 1, All: -1, RUNNING: 1 })).toEqual({
      SUCCESS: -1,
      RUNNING: 1,
    });
  });

  it('encodes include as value:1 and exclude as value:-1', () => {
    expect(encodeTriStateList({ SUCCESS: -1, FAILED: 1, WARNING: 0 })).toBe('SUCCESS:-1,FAILED:1');
    expect(encodeTriStateList({})).toBe('');
  });

  it('decodes the list form and ignores malformed entries', () => {
    expect(decodeTriStateList('SUCCESS:-1,FAILED:1,bad,X:2,all:1,:1')).toEqual({ SUCCESS: -1, FAILED: 1 });
    expect(decodeTriStateList(null)).toEqual({});
  });

  it('round-trips values holding commas and colons', () => {
    const map = { 'app:web,api': 1 as const, 'env=prod': -1 as const };
    expect(decodeTriStateList(encodeTriStateList(map))).toEqual(map);
  });

  it('encodes label filters as JSON of label to 1 or -1', () => {
    expect(encodeTriStateJson({ 'env=prod': 1, 'team=a': -1, x: 0 })).toBe('{"env=prod":1,"team=a":-1}');
    expect(encodeTriStateJson({ x: 0 })).toBe('');
    expect(decodeTriStateJson('{"env=prod":1,"team=a":-1,"y":3,"all":1}')).toEqual({ 'env=prod': 1, 'team=a': -1 });
    expect(decodeTriStateJson('not json')).toEqual({});
    expect(decodeTriStateJson('[1]')).toEqual({});
  });

  it('splits a filter into included and excluded values', () => {
    expect(triStateSplit({ a: 1, b: -1, c: 1, all: 1 })).toEqual({ include: ['a', 'c'], exclude: ['b'] });
  });
});
