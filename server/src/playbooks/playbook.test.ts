import { describe, expect, it } from 'vitest';
import { parseDocuments, ResourceErrors } from '../resources/yaml.js';
import { parsePlaybook } from './playbook.js';

const header = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: restart
  namespace: ops
spec:
`;

const parse = (spec: string) => parsePlaybook(parseDocuments(header + spec)[0]!);

function errorsOf(spec: string) {
  try {
    parse(spec);
  } catch (e) {
    if (e instanceof ResourceErrors)
      return e.errors.map((x) => ({ message: x.message, path: x.path, line: x.position?.line }));
    throw e;
  }
  throw new Error('expected the playbook to be refused');
}

describe('Playbook resource', () => {
  it('parses selectors, parameters and actions, with title defaulting to the name and timeout to 5m', () => {
    const def = parse(`  category: Ops
  checks:
    - types: [http]
      labelSelector: app=web
  parameters:
    - name: count
      default: 3
  actions:
    - name: probe
      if: success()
      exec:
        script: echo hi
`);
    expect(def).toMatchObject({ name: 'restart', namespace: 'ops', title: 'restart', category: 'Ops', icon: null });
    expect(def.spec.checks).toEqual([{ types: ['http'], labelSelector: 'app=web' }]);
    expect(def.spec.actions).toEqual([
      { name: 'probe', if: 'success()', delay: undefined, timeout: '5m', type: 'exec', body: { script: 'echo hi' } },
    ]);
    expect(def.spec.parameters[0]).toMatchObject({ name: 'count', default: 3 });
  });

  it('refuses approvals, triggers and runsOn by name, at their line', () => {
    const errors = errorsOf(`  approval:
    approvers: {people: [a@b.c]}
  on:
    config: [{event: created}]
  runsOn: [agent-1]
  actions:
    - name: a
      exec: {script: "true"}
`);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'spec.approval',
          line: 8,
          message: expect.stringContaining('spec.approval: approvals are not supported yet'),
        }),
        expect.objectContaining({ path: 'spec.on', line: 10 }),
        expect.objectContaining({ path: 'spec.runsOn', line: 11 }),
      ]),
    );
  });

  it('refuses unknown and unsupported action types, two types, duplicate names and bad CEL', () => {
    const errors = errorsOf(`  actions:
    - name: a
      gitops: {repo: x}
    - name: a
      exec: {script: "true"}
      http: {url: "http://x"}
    - name: c
      if: "params.x ==="
      pigeon: {}
    - name: d
      exec: {}
      delay: "not a duration ("
`);
    const messages = errors.map((e) => e.message).join('\n');
    expect(messages).toContain(
      'spec.actions[0].gitops: the gitops action is not supported yet (supported: exec, http, sql, notification)',
    );
    expect(messages).toContain('spec.actions[1].name: the action name "a" is used twice');
    expect(messages).toContain('spec.actions[1].http: an action has exactly one type, found exec and http');
    expect(messages).toContain('spec.actions[2].if:');
    expect(messages).toContain('spec.actions[2].pigeon: unknown field');
    expect(messages).toContain('spec.actions[3].exec.script: script is required');
    expect(messages).toContain('spec.actions[3].delay: not a duration');
  });

  it('needs at least one action, refuses empty selectors, bad label selectors and unknown selector fields', () => {
    const messages = errorsOf(`  configs:
    - {}
    - labelSelector: "a in ("
    - fieldSelector: x=y
  actions: []
`)
      .map((e) => e.message)
      .join('\n');
    expect(messages).toContain('spec.actions: a playbook needs at least one action');
    expect(messages).toContain('spec.configs[2]: fieldSelector: not supported in a resource selector');
  });

  it('refuses a list parameter without options and an unknown parameter type', () => {
    const run = '  actions:\n    - name: a\n      exec: {script: "true"}\n';
    const list = errorsOf(`  parameters:\n    - name: choice\n      type: list\n${run}`);
    expect(list[0]).toMatchObject({ path: 'spec.parameters[0].properties.options', line: 8 });
    expect(list[0]!.message).toContain('a list parameter needs options');
    const slider = errorsOf(`  parameters:\n    - name: x\n      type: slider\n${run}`);
    expect(slider[0]).toMatchObject({ path: 'spec.parameters[0].type', line: 9 });
    expect(slider[0]!.message).toContain('type must be one of code, checkbox, list');
  });
});
