// Unit tests of catalog change detection: normalization, merge patches, changed paths, the line
// diff and the unified diff text, fingerprints and the repeat window.
import { describe, expect, it } from 'vitest';
import {
  changedPaths,
  changeFingerprint,
  describeChange,
  diffLines,
  isRepeat,
  mergePatch,
  normalize,
  renderYaml,
  unifiedDiff,
} from './changes.js';

describe('normalize', () => {
  it('sorts keys recursively and drops undefined', () => {
    const n = normalize({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } });
    expect(JSON.stringify(n)).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });
});

describe('mergePatch', () => {
  it('writes changed and added members, null for removed ones, arrays whole', () => {
    const before = normalize({ spec: { replicas: 1, paused: true, ports: [80] }, metadata: { name: 'x' } });
    const after = normalize({ spec: { replicas: 3, ports: [80, 443] }, metadata: { name: 'x', labels: { a: 'b' } } });
    expect(mergePatch(before, after)).toEqual({
      metadata: { labels: { a: 'b' } },
      spec: { paused: null, ports: [80, 443], replicas: 3 },
    });
  });
});

describe('changedPaths', () => {
  it('lists the leaves that differ, sorted', () => {
    const before = normalize({ spec: { replicas: 1 }, metadata: { labels: { app: 'a', tier: 'web' } } });
    const after = normalize({ spec: { replicas: 2 }, metadata: { labels: { app: 'b', tier: 'web' } } });
    expect(changedPaths(before, after)).toEqual(['metadata.labels.app', 'spec.replicas']);
  });
});

describe('diffLines', () => {
  it('finds the shortest edit script', () => {
    const ops = diffLines(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e']);
    expect(ops.map((o) => `${o.kind}${o.line}`)).toEqual([' a', '-b', '+x', ' c', ' d', '+e']);
  });

  it('handles empty sides', () => {
    expect(diffLines([], ['a']).map((o) => o.kind)).toEqual(['+']);
    expect(diffLines(['a'], []).map((o) => o.kind)).toEqual(['-']);
    expect(diffLines([], [])).toEqual([]);
  });
});

describe('unifiedDiff', () => {
  it('writes hunks with 3 lines of context', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n');
    const after = ['1', '2', '3', '4', 'five', '6', '7', '8', '9', '10'].join('\n');
    expect(unifiedDiff(before, after)).toBe(
      ['--- before', '+++ after', '@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8', ''].join('\n'),
    );
  });

  it('separates distant changes into hunks', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const changed = lines.map((l, i) => (i === 1 || i === 18 ? `${l}!` : l));
    const diff = unifiedDiff(lines.join('\n'), changed.join('\n'));
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    expect(diff).toContain('@@ -1,5 +1,5 @@');
    expect(diff).toContain('@@ -16,5 +16,5 @@');
  });

  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb', 'a\nb')).toBe('');
  });
});

describe('describeChange', () => {
  it('describes a changed field with diff, patch and summary', () => {
    const before = normalize({ kind: 'ConfigMap', data: { level: 'info', mode: 'a' } });
    const after = normalize({ kind: 'ConfigMap', data: { level: 'debug', mode: 'a' } });
    const change = describeChange(before, after)!;
    expect(change.summary).toBe('data.level');
    expect(change.patch).toBe('{"data":{"level":"debug"}}');
    expect(change.diff).toBe(
      [
        '--- before',
        '+++ after',
        '@@ -1,4 +1,4 @@',
        ' data:',
        '-  level: info',
        '+  level: debug',
        '   mode: a',
        ' kind: ConfigMap',
        '',
      ].join('\n'),
    );
  });

  it('says nothing for an equal config', () => {
    expect(describeChange(normalize({ a: 1, b: 2 }), normalize({ b: 2, a: 1 }))).toBeUndefined();
  });

  it('shortens long summaries', () => {
    const before = normalize(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, 0])));
    const after = normalize(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, 1])));
    expect(describeChange(before, after)!.summary).toMatch(/ and 2 more$/);
  });
});

describe('fingerprints and repeats', () => {
  it('depend on item, type and patch', () => {
    const a = changeFingerprint('id1', 'diff', '{"a":1}');
    expect(changeFingerprint('id1', 'diff', '{"a":1}')).toBe(a);
    expect(changeFingerprint('id2', 'diff', '{"a":1}')).not.toBe(a);
    expect(changeFingerprint('id1', 'diff', '{"a":2}')).not.toBe(a);
  });

  it('count as repeats inside the window only', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    expect(isRepeat(new Date('2026-01-01T11:30:00Z'), now, 3_600_000)).toBe(true);
    expect(isRepeat(new Date('2026-01-01T10:30:00Z'), now, 3_600_000)).toBe(false);
    expect(isRepeat(undefined, now, 3_600_000)).toBe(false);
  });
});

describe('renderYaml', () => {
  it('writes block YAML that reads back as the same value', async () => {
    const { parse } = await import('yaml');
    const value = normalize({
      kind: 'Deployment',
      spec: { replicas: 3, paused: false, ports: [80, { name: 'https', port: 443 }], empty: {}, none: [] },
      data: {
        a: '300',
        b: 'true',
        c: 'with: colon',
        d: 'multi\nline',
        e: '',
        f: null,
        g: 'plain text',
        h: '2024-01-01',
      },
      list: [[1, 2], { x: { y: 'z' } }],
    });
    const text = renderYaml(value);
    expect(parse(text)).toEqual(value);
    expect(text).toContain('  replicas: 3\n');
    expect(text).toContain('  a: "300"\n');
    expect(text).toContain('  g: plain text\n');
    expect(text).toContain('  - name: https\n    port: 443\n');
  });
});
