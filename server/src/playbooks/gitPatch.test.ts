// The gitops patches: the yq/jq subset, JSON merge patch and JSON patch on YAML (comments kept) and JSON.
import { describe, expect, it } from 'vitest';
import { applyPatch, parsePath, parseYq, PatchError } from './gitPatch.js';

const deployment = `# the web deployment
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # keep me
  labels: {app: web}
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: web
          image: web:1.0
`;

describe('gitops patches', () => {
  it('reads yq paths with keys, quoted keys and indexes', () => {
    expect(parsePath('.spec.template.spec.containers[0].image')).toEqual([
      'spec',
      'template',
      'spec',
      'containers',
      0,
      'image',
    ]);
    expect(parsePath('.metadata.annotations["example.com/owner"]')).toEqual([
      'metadata',
      'annotations',
      'example.com/owner',
    ]);
    expect(parsePath('.metadata."a b"')).toEqual(['metadata', 'a b']);
    expect(parsePath('.')).toEqual([]);
  });

  it('sets values with yq assignments and keeps comments and the rest of the file', () => {
    const out = applyPatch('deploy.yaml', deployment, {
      yq: '.spec.replicas = 5 | .spec.template.spec.containers[0].image = "web:1.1" | .metadata.labels.tier = "front"',
    });
    expect(out).toContain('# the web deployment');
    expect(out).toContain('name: web # keep me');
    expect(out).toContain('replicas: 5');
    expect(out).toContain('image: web:1.1');
    expect(out).toMatch(/labels: \{ app: web, tier: front \}/);
  });

  it("keeps a replaced value's comment and quote style, and quotes words YAML 1.1 reads as booleans", () => {
    const out = applyPatch('x.yaml', "replicas: 2 # scaled by playbooks\nimage: 'web:1'\n", {
      yq: '.replicas = 5 | .image = "web:2" | .enabled = "yes" | .mode = "off"',
    });
    expect(out).toBe('replicas: 5 # scaled by playbooks\nimage: \'web:2\'\nenabled: "yes"\nmode: "off"\n');
  });

  it('creates missing maps, deletes with del(), and reads YAML flow values', () => {
    const out = applyPatch('x.yaml', 'a: 1\n', { yq: '.b.c = {d: [1, 2]} | del(.a) | del(.missing)' });
    expect(out).toBe('b:\n  c:\n    d:\n      - 1\n      - 2\n');
  });

  it('refuses what the subset does not support, saying what is', () => {
    expect(() => parseYq('.a += 1')).toThrow(PatchError);
    expect(() => parseYq('.spec | keys')).toThrow(/use assignments such as \.spec\.replicas = 3/);
    expect(() => parseYq('.a = "open')).toThrow(/unclosed " quote/);
    expect(() => parseYq('spec.replicas = 1')).toThrow(/a path starts with "\."/);
  });

  it('applies a JSON merge patch: objects merged, null deletes, lists replaced', () => {
    const out = applyPatch('deploy.yaml', deployment, {
      merge: { metadata: { labels: null, annotations: { owner: 'ops' } }, spec: { replicas: 3 } },
    });
    expect(out).toContain('name: web # keep me');
    expect(out).not.toContain('labels');
    expect(out).toContain('annotations:\n    owner: ops');
    expect(out).toContain('replicas: 3');
  });

  it('applies an RFC 6902 JSON patch: add (append with -), replace, remove, move, copy, test', () => {
    const text = 'items: [a, b]\nname: x\nold: 1\n';
    const out = applyPatch('list.yaml', text, {
      jsonPatch: [
        { op: 'test', path: '/name', value: 'x' },
        { op: 'add', path: '/items/-', value: 'c' },
        { op: 'add', path: '/items/0', value: 'first' },
        { op: 'replace', path: '/name', value: 'z' },
        { op: 'move', from: '/old', path: '/new' },
        { op: 'copy', from: '/name', path: '/copy' },
        { op: 'remove', path: '/items/1' },
      ],
    });
    expect(out).toBe('items: [ first, b, c ]\nname: z\nnew: 1\ncopy: z\n');
    expect(() => applyPatch('list.yaml', text, { jsonPatch: [{ op: 'test', path: '/name', value: 'z' }] })).toThrow(
      /the value is "x", not "z"/,
    );
    expect(() => applyPatch('list.yaml', text, { jsonPatch: [{ op: 'remove', path: '/nope' }] })).toThrow(
      /does not exist/,
    );
  });

  it('writes JSON files back as JSON and patches every document of a multi-document YAML file', () => {
    expect(applyPatch('values.json', '{"a": {"b": 1}}', { yq: '.a.b = 2' })).toBe('{\n  "a": {\n    "b": 2\n  }\n}\n');
    expect(applyPatch('all.yaml', 'a: 1\n---\na: 2\n', { yq: '.b = true' })).toBe(
      'a: 1\nb: true\n---\na: 2\nb: true\n',
    );
    expect(applyPatch('new.yaml', '', { merge: { a: 1 } })).toBe('a: 1\n');
    expect(() => applyPatch('bad.yaml', 'a: [1\n', { yq: '.a = 1' })).toThrow(/bad.yaml is not valid YAML/);
  });
});
