import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  globToLike,
  matchesLabels,
  parseLabelSelector,
  requiredLabels,
  selectorId,
} from './selectors.js';
import { dollarToBraces, templateValue } from './template.js';

describe('label selectors', () => {
  it('reads equality, inequality, sets and existence', () => {
    const r = parseLabelSelector('app=web, env!=prod,tier in (a, b),!legacy,team');
    expect(r).toEqual([
      { key: 'app', op: 'in', values: ['web'] },
      { key: 'env', op: 'notin', values: ['prod'] },
      { key: 'tier', op: 'in', values: ['a', 'b'] },
      { key: 'legacy', op: 'notexists' },
      { key: 'team', op: 'exists' },
    ]);
    expect(matchesLabels({ app: 'web', tier: 'b', team: 'x' }, r)).toBe(true);
    expect(matchesLabels({ app: 'web', tier: 'b', team: 'x', env: 'prod' }, r)).toBe(false);
    expect(matchesLabels({ app: 'web', tier: 'c', team: 'x' }, r)).toBe(false);
    expect(matchesLabels({ app: 'web', tier: 'a', team: 'x', legacy: '1' }, r)).toBe(false);
    expect(requiredLabels(r)).toEqual({ app: 'web' });
  });

  it('refuses what it cannot read', () => {
    expect(() => parseLabelSelector('a=b,???')).toThrow(/cannot read "\?\?\?"/);
  });
});

describe('selector helpers', () => {
  it('turns name globs into escaped LIKE patterns', () => {
    expect(globToLike('web-*')).toBe('web-%');
    expect(globToLike('a_b%*')).toBe('a\\_b\\%%');
  });

  it('gives equal selectors the same id whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
    expect(selectorId('check', { name: 'x', labelSelector: 'a=b' })).toBe(
      selectorId('check', { labelSelector: 'a=b', name: 'x' }),
    );
    expect(selectorId('check', { name: 'x' })).toMatch(/^check:[0-9a-f]{16}$/);
  });
});

describe('forEach templating', () => {
  const vars = { component: { name: 'api', labels: { app: 'shop' } } };

  it('renders {{ }} and $(.x) but leaves scripts and $(secret) alone', () => {
    const out = templateValue(
      {
        name: '{{.component.name}}-db',
        url: 'http://$(.component.name):8080/$(index .component.labels "app")?u=$(username)',
        display: { template: '{{.code}}' },
        list: ['x-$(.component.name)'],
      },
      vars,
      () => undefined,
    );
    expect(out).toEqual({
      name: 'api-db',
      url: 'http://api:8080/shop?u=$(username)',
      display: { template: '{{.code}}' },
      list: ['x-api'],
    });
  });

  it('reports a template that fails and keeps the text', () => {
    const errors: string[] = [];
    const out = templateValue({ a: '{{ .component.name | nosuchfunc }}' }, vars, (p, m) => errors.push(`${p}: ${m}`));
    expect(out.a).toBe('{{ .component.name | nosuchfunc }}');
    expect(errors[0]).toMatch(/^a: /);
  });

  it('converts nested parentheses and quotes in $(...)', () => {
    expect(dollarToBraces('$(printf "%s)" (.a))')).toBe('{{printf "%s)" (.a)}}');
    expect(dollarToBraces('no $(.unclosed')).toBe('no $(.unclosed');
  });
});
