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

  it('reads approval, on triggers and runsOn, and still refuses templatesOn by name at its line', () => {
    const def = parse(`  approval:
    type: all
    approvers: {people: [a@b.c], teams: [sre]}
  on:
    check: [{event: failed, filter: "check.type == 'http'", labels: {app: web}}]
    config: [{event: updated}]
    schedule: [{schedule: "@every 5m"}, {schedule: "0 * * * *"}]
    webhook: {path: deploy/hook, authentication: {github: {token: {value: s3cret}}}}
  actions:
    - name: a
      exec: {script: "true"}
`);
    expect(def.spec.approval).toEqual({ type: 'all', approvers: { people: ['a@b.c'], teams: ['sre'] } });
    expect(def.spec.on?.check).toEqual([{ event: 'failed', filter: "check.type == 'http'", labels: { app: 'web' } }]);
    expect(def.spec.on?.webhook?.path).toBe('deploy/hook');
    expect(parse(`  runsOn: [edge-1]\n  actions: [{name: a, exec: {script: "true"}}]\n`).spec.runsOn).toEqual([
      'edge-1',
    ]);
    const errors = errorsOf(`  templatesOn: agent
  actions:
    - name: a
      exec: {script: "true"}
`);
    expect(errors).toEqual([expect.objectContaining({ path: 'spec.templatesOn', line: 7 })]);
  });

  it('refuses unknown approval types and trigger fields, and bad webhook paths, at their lines', () => {
    const messages = errorsOf(`  approval:
    type: some
    approvers: {people: [a]}
  on:
    config: [{event: created, when: now}]
    webhook: {path: /x}
  actions:
    - name: a
      exec: {script: "true"}
`)
      .map((e) => `${e.path}@${e.line}: ${e.message}`)
      .join('\n');
    expect(messages).toContain('spec.approval.type@8: spec.approval.type: type is any (one approval is enough) or all');
    expect(messages).toContain(
      'spec.on.config[0]@11: spec.on.config[0]: when: unknown field (use event, filter and labels)',
    );
    expect(messages).toContain('spec.on.webhook.path@12');
  });

  it('refuses wrong trigger events, filters that do not compile, bad schedules and approvals without approvers', () => {
    const messages = errorsOf(`  approval:
    approvers: {}
  on:
    check: [{event: unhealthy}]
    component: [{event: unhealthy, filter: "component.name ==="}]
    schedule: [{schedule: "every tuesday"}]
    webhook: {path: x, authentication: {basic: {username: a, password: b}, github: {token: c}}}
  actions:
    - name: a
      exec: {script: "true"}
`)
      .map((e) => `${e.path}@${e.line}: ${e.message}`)
      .join('\n');
    expect(messages).toContain('spec.approval.approvers@8: spec.approval.approvers: name at least one approver');
    expect(messages).toContain(
      'spec.on.check[0].event@10: spec.on.check[0].event: "unhealthy" is not a check event (one of failed, passed)',
    );
    expect(messages).toContain('spec.on.component[0].filter@11');
    expect(messages).toContain(
      'spec.on.schedule[0].schedule@12: spec.on.schedule[0].schedule: schedule "every tuesday" is not valid',
    );
    expect(messages).toContain(
      'spec.on.webhook.authentication@13: spec.on.webhook.authentication: choose one of basic',
    );
  });

  it('refuses unknown and unsupported action types, two types, duplicate names and bad CEL', () => {
    const errors = errorsOf(`  actions:
    - name: a
      ai: {}
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
    expect(messages).toContain('spec.actions[0].ai: the ai action is not supported yet');
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
