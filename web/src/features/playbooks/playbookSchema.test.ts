import { describe, expect, it } from 'vitest';
import { parseEditorDocument } from '../../ui/code-editor/document';
import { playbookResourceJsonSchema, SAMPLE_PLAYBOOK_YAML, titleOfYaml, withYamlTitle } from './playbookSchema';

const check = (text: string) => parseEditorDocument(text, 'yaml', playbookResourceJsonSchema);

describe('playbookResourceJsonSchema', () => {
  it('accepts the sample playbook', () => {
    const parsed = check(SAMPLE_PLAYBOOK_YAML);
    expect(parsed.problems).toEqual([]);
    expect(parsed.value).toMatchObject({ kind: 'Playbook', spec: { title: 'Echo a greeting' } });
  });

  it('refuses a playbook without a title, at the line of its spec', () => {
    const text = withYamlTitle(SAMPLE_PLAYBOOK_YAML, '')!;
    const { problems } = check(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/title/);
    expect(problems[0]!.line).toBe(text.split('\n').indexOf('spec:') + 2);
  });

  it('refuses an action without a name and an exec action without a script, at their lines', () => {
    const text = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: broken
spec:
  title: Broken
  actions:
    - exec:
        script: echo hi
    - name: empty
      exec: {}
`;
    const { problems } = check(text);
    expect(problems.map((p) => p.line)).toEqual([8, 11]);
    expect(problems[0]!.message).toMatch(/name/);
    expect(problems[1]!.message).toMatch(/script/);
  });

  it('refuses the wrong kind, an unknown parameter type and a playbook without actions', () => {
    const text = `apiVersion: mission-control.flanksource.com/v1
kind: Canary
metadata:
  name: wrong
spec:
  title: Wrong
  parameters:
    - name: p
      type: colour
`;
    const messages = check(text).problems.map((p) => `${p.line} ${p.message}`);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(/^2 /);
    expect(messages.some((m) => /^6 .*actions/.test(m))).toBe(true);
    expect(messages.some((m) => /^9 /.test(m))).toBe(true);
  });
});

describe('title ↔ YAML', () => {
  it('reads spec.title, empty when there is none, undefined when the YAML does not parse', () => {
    expect(titleOfYaml(SAMPLE_PLAYBOOK_YAML)).toBe('Echo a greeting');
    expect(titleOfYaml('kind: Playbook\nspec:\n  actions: []\n')).toBe('');
    expect(titleOfYaml('spec: [unclosed')).toBeUndefined();
  });

  it('sets the title in place, keeping comments and the rest of the text', () => {
    const text = '# restart it\nkind: Playbook\nspec:\n  title: Old # shown on the card\n  category: Ops\n';
    const next = withYamlTitle(text, 'New title')!;
    expect(next).toBe('# restart it\nkind: Playbook\nspec:\n  title: New title # shown on the card\n  category: Ops\n');
    expect(titleOfYaml(next)).toBe('New title');
  });

  it('adds a missing title first in the spec, creates the spec when there is none, and removes a blank one', () => {
    expect(withYamlTitle('kind: Playbook\nspec:\n  category: Ops\n', 'Restart')).toBe(
      'kind: Playbook\nspec:\n  title: Restart\n  category: Ops\n',
    );
    expect(withYamlTitle('kind: Playbook\n', 'Restart')).toBe('kind: Playbook\nspec:\n  title: Restart\n');
    expect(withYamlTitle('kind: Playbook\nspec:\n', 'Restart')).toBe('kind: Playbook\nspec:\n  title: Restart\n');
    expect(withYamlTitle('spec:\n  title: Old\n  category: Ops\n', '')).toBe('spec:\n  category: Ops\n');
  });

  it('keeps a title that needs quoting a string', () => {
    const next = withYamlTitle(SAMPLE_PLAYBOOK_YAML, 'yes: 1 # not a comment')!;
    expect(titleOfYaml(next)).toBe('yes: 1 # not a comment');
    expect(check(next).problems).toEqual([]);
  });

  it('leaves text it cannot edit alone', () => {
    expect(withYamlTitle('spec: [unclosed', 'x')).toBeUndefined();
    expect(withYamlTitle('- a list\n', 'x')).toBeUndefined();
    expect(withYamlTitle('spec: text\n', 'x')).toBeUndefined();
  });
});
