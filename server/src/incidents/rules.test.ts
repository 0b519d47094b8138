import { describe, expect, it } from 'vitest';
import { parseDocuments, ResourceErrors } from '../resources/yaml.js';
import { componentMatchesFilter, parseIncidentRule, storedRuleSpec } from './rules.js';

const rule = (spec: string) =>
  parseIncidentRule(
    parseDocuments(
      `apiVersion: mission-control.flanksource.com/v1\nkind: IncidentRule\nmetadata: {name: r}\nspec:\n${spec}`,
    )[0]!,
  );

describe('IncidentRule resources', () => {
  it('reads a rule with its defaults', () => {
    const { name, spec } = rule('  components:\n    - {name: "api-*", labelSelector: "team=pay"}\n');
    expect(name).toBe('r');
    expect(spec).toMatchObject({
      priority: 0,
      breakOnMatch: false,
      autoResolve: { enabled: false },
      filter: {},
      components: [{ name: 'api-*', labelSelector: 'team=pay' }],
    });
  });

  it('refuses unknown fields, bad selectors and durations with line and column', () => {
    const errors = (spec: string) => {
      try {
        rule(spec);
      } catch (e) {
        return (e as ResourceErrors).errors.map((x) => x.toJSON());
      }
      throw new Error('accepted');
    };
    expect(errors('  autoResolve: {enabled: true, timeout: soon}\n')[0]).toMatchObject({
      message: expect.stringContaining('spec.autoResolve.timeout: must be a duration'),
      line: 5,
    });
    expect(errors('  components:\n    - {labelSelector: "a in b"}\n')[0]!.message).toContain('is not a label selector');
    expect(errors('  template: {type: weather}\n')[0]!.message).toContain('Please select an incident type');
    expect(errors('  colour: red\n')[0]!.message).toContain('colour');
  });

  it('reads a stored spec, whole resource or bare', () => {
    expect(storedRuleSpec({ priority: 2 })?.priority).toBe(2);
    expect(storedRuleSpec({ kind: 'IncidentRule', spec: { breakOnMatch: true } })?.breakOnMatch).toBe(true);
    expect(storedRuleSpec({ priority: 'high' })).toBeNull();
  });
});

describe('rule filters', () => {
  const spec = storedRuleSpec({})!;
  const c = (health: string, extra: object = {}) => ({ health, status: null, labels: {}, severities: null, ...extra });

  it('opens on unhealthy and warning by default, never on healthy or unknown', () => {
    expect(['healthy', 'unhealthy', 'warning', 'unknown'].map((h) => componentMatchesFilter(c(h), spec))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('matches listed statuses by health or status text, and severities by label or linked check', () => {
    const s = storedRuleSpec({ filter: { status: ['unhealthy', 'CrashLoop'], severity: ['critical'] } })!;
    expect(componentMatchesFilter(c('unhealthy', { labels: { severity: 'critical' } }), s)).toBe(true);
    expect(componentMatchesFilter(c('warning', { status: 'CrashLoop', severities: ['critical'] }), s)).toBe(true);
    expect(componentMatchesFilter(c('unhealthy', { severities: ['low'] }), s)).toBe(false);
    expect(componentMatchesFilter(c('warning', { labels: { severity: 'critical' } }), s)).toBe(false);
  });
});
