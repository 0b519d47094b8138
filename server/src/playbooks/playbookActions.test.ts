// The Playbook resource's gitops and logs actions, retry, exec artifacts, filters and secret/connection
// parameters: accepted as mission-control spells them, refused with their line when wrong.
import { describe, expect, it } from 'vitest';
import { parseDocuments, ResourceErrors } from '../resources/yaml.js';
import { parsePlaybook } from './playbook.js';

const header = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: scale
  namespace: ops
spec:
`;

const parse = (spec: string) => parsePlaybook(parseDocuments(header + spec)[0]!);

function errorsOf(spec: string): string[] {
  try {
    parse(spec);
  } catch (e) {
    if (e instanceof ResourceErrors) return e.errors.map((x) => `${x.position?.line}: ${x.message}`);
    throw e;
  }
  throw new Error('expected the playbook to be refused');
}

describe('Playbook actions, retries, artifacts, filters and parameters', () => {
  it('accepts a gitops action, retry, exec artifacts, filters and secret/connection parameters', () => {
    const def = parse(`  filters:
    - config.type == 'Kubernetes::Deployment'
  parameters:
    - {name: token, type: secret}
    - {name: repo, type: connection}
  actions:
    - name: bump
      retry: {limit: 3, duration: 10s, exponent: {multiplier: 2}, jitter: 10}
      gitops:
        repo: {url: "https://github.com/acme/apps", connection: "connection://github/acme", base: main, branch: "scale-{{.config.name}}"}
        commit: {author: Ops, email: ops@example.com, message: "scale {{.config.name}}"}
        pr: {title: "Scale {{.config.name}}", tags: [ops]}
        patches:
          - {path: "apps/*.yaml", yq: ".spec.replicas = 3"}
          - {path: values.yaml, mergePatch: {replicas: 3}}
          - {path: values.json, jsonPatch: [{op: replace, path: /replicas, value: 3}]}
        files:
          - {path: "notes/{{.config.name}}.md", content: "scaled"}
          - {path: old.yaml, content: $delete}
    - name: report
      exec:
        script: echo hi > report.txt
        artifacts: [{path: report.txt}, {path: "/tmp/opsdeck-*.log"}]
`);
    expect(def.spec.filters).toEqual(["config.type == 'Kubernetes::Deployment'"]);
    expect(def.spec.parameters.map((p) => p.type)).toEqual(['secret', 'connection']);
    expect(def.spec.actions[0]).toMatchObject({
      type: 'gitops',
      retry: { limit: 3, duration: '10s', exponent: { multiplier: 2 }, jitter: 10 },
    });
    expect(def.spec.actions[1]!.body).toMatchObject({
      artifacts: [{ path: 'report.txt' }, { path: '/tmp/opsdeck-*.log' }],
    });
  });

  it('refuses a filter that does not compile, and bad retries, at their lines', () => {
    const filters = errorsOf(`  filters:
    - "config.type =="
  actions:
    - name: a
      exec: {script: "true"}
`);
    expect(filters).toEqual([expect.stringMatching(/^8: spec\.filters\[0\]: not a valid CEL expression/)]);
    const errors = errorsOf(`  actions:
    - name: a
      retry: {limit: -1, backoff: 2}
      exec: {script: "true"}
`);
    expect(errors).toEqual([
      '9: spec.actions[0].retry.limit: limit must be 0 or more (line 9, column 22)',
      '9: spec.actions[0].retry: backoff: not a retry field (limit, duration, exponent, jitter) (line 9, column 14)',
    ]);
    const retry = errorsOf(`  actions:
    - name: a
      retry: {limit: 2, duration: soon, jitter: 300}
      exec: {script: "true"}
`).join('\n');
    expect(retry).toContain('spec.actions[0].retry.duration: not a duration');
    expect(retry).toContain('spec.actions[0].retry.jitter: jitter is a percentage: 0 to 100');
  });

  it('refuses a gitops action without what it needs, with unknown fields or an unsupported yq expression', () => {
    const errors = errorsOf(`  actions:
    - name: a
      gitops:
        repo: {branch: x, token: y}
        commit: {author: Ops}
        pr: {title: T, autoMerge: {enabled: true}}
        patches:
          - {path: a.yaml, yq: ".a += 1"}
          - {path: b.yaml, yq: ".a = 1", mergePatch: {a: 1}}
`).join('\n');
    expect(errors).toContain('spec.actions[0].gitops.repo: token: not supported here (url, connection, base, branch');
    expect(errors).toContain('spec.actions[0].gitops.commit.email: email is required');
    expect(errors).toContain('spec.actions[0].gitops.commit.message: message is required');
    expect(errors).toContain('spec.actions[0].gitops.pr.autoMerge: autoMerge is not supported yet');
    expect(errors).toContain('spec.actions[0].gitops.patches[0].yq: ".a += 1" is not supported');
    expect(errors).toContain(
      'spec.actions[0].gitops.patches[1].mergePatch: a patch has exactly one of yq, jq, mergePatch or jsonPatch (found yq and mergePatch)',
    );
  });

  it('refuses artifacts without a path and what remains unsupported', () => {
    const errors = errorsOf(`  actions:
    - name: a
      exec: {script: "true", artifacts: [{name: x}]}
    - name: b
      ai: {prompt: hi}
`).join('\n');
    expect(errors).toContain('spec.actions[0].exec.artifacts[0].path: path is required');
    expect(errors).toContain('spec.actions[0].exec.artifacts[0]: name: an artifact has only path');
    expect(errors).toContain('spec.actions[1].ai: the ai action is not supported yet');
    expect(errorsOf(`  templatesOn: host\n  actions: [{name: a, exec: {script: "true"}}]\n`)).toEqual([
      '7: spec.templatesOn: templatesOn is not supported yet (line 7, column 16)',
    ]);
    expect(errorsOf(`  actions: [{name: a, runsOn: [x], exec: {script: "true"}}]\n`)).toEqual([
      '7: spec.actions[0].runsOn: runsOn is set on the playbook (spec.runsOn), not on one action (line 7, column 31)',
    ]);
  });

  it('accepts a logs action as templates or values, refuses bad fields, times and limits', () => {
    const def = parse(`  actions:
    - name: a
      logs: {component: '{{.component.id}}', query: '{{.params.q}}', start: 1h, end: now, limit: "50", labels: {app: web}}
`);
    expect(def.spec.actions[0]).toMatchObject({ type: 'logs', body: { component: '{{.component.id}}', start: '1h' } });
    const errors = errorsOf(`  actions:
    - name: a
      logs: {component: x, start: yesterday, limit: 0, cloudwatch: {}, postProcess: {}, match: x}
`).join('\n');
    expect(errors).toContain('spec.actions[0].logs.start: "yesterday" is not a time');
    expect(errors).toContain('spec.actions[0].logs.limit: limit must be at least 1');
    expect(errors).toContain('spec.actions[0].logs.cloudwatch: cloudwatch is not supported here');
    expect(errors).toContain('spec.actions[0].logs.postProcess: postProcess is not supported yet');
    expect(errors).toContain('spec.actions[0].logs: match: unknown field (use backend, type, component');
    expect(errorsOf(`  actions: [{name: a, logs: {component: x, config: y}}]\n`)).toEqual([
      '7: spec.actions[0].logs.config: give component or config, not both (line 7, column 52)',
    ]);
  });
});
