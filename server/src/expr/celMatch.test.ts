import { describe, expect, it } from 'vitest';
import { evaluateCel } from './cel.js';

const ev = (expr: string, vars: Record<string, unknown> = {}) => evaluateCel(expr, vars);

const config = {
  name: 'api-7d9f',
  type: 'Kubernetes::Pod',
  namespace: 'prod',
  health: 'healthy',
  tags: { cluster: 'homelab' },
  labels: { app: 'api', 'app.kubernetes.io/name': 'api' },
  created_at: '2024-01-01T00:00:00Z',
};

const pod = (phase: string, ready: string, waiting?: string) => ({
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'kube-system', labels: { 'k8s-app': 'dns', 'pod-template-hash': 'abc' } },
  status: {
    phase,
    conditions: [{ type: 'Ready', status: ready }],
    containerStatuses: waiting ? [{ state: { waiting: { reason: waiting, message: 'back-off' } } }] : [],
  },
});

describe('CEL matchQuery and matchLabel', () => {
  it('matchQuery: key=value terms (all must hold), globs, lists, negation', () => {
    expect(ev('matchQuery(config, "type=Kubernetes::Pod")', { config })).toBe(true);
    expect(ev('matchQuery(config, "type=Kubernetes::Pod tags.cluster=homelab")', { config })).toBe(true);
    expect(ev('matchQuery(config, "type=Kubernetes::Pod tags.cluster=prod")', { config })).toBe(false);
    expect(ev('matchQuery(config, "name=api-* namespace=dev,prod")', { config })).toBe(true);
    expect(ev('matchQuery(config, "namespace!=prod")', { config })).toBe(false);
    expect(ev('matchQuery(config, "type=!Kubernetes::Node")', { config })).toBe(true);
    expect(ev('matchQuery(config, "api-*")', { config })).toBe(true);
    expect(ev('matchQuery(config, "app.kubernetes.io/name=api cluster=homelab")', { config })).toBe(true);
    expect(ev('matchQuery(config, "created_at>2023-06-01")', { config })).toBe(true);
    expect(ev('matchQuery(config, "missing=x")', { config })).toBe(false);
  });

  it('matchLabel: patterns with wildcards, exclusions and !* for absent labels', () => {
    const labels = { region: 'us-east-1', env: 'staging' };
    expect(ev('matchLabel(labels, "region", "us-*")', { labels })).toBe(true);
    expect(ev('matchLabel(labels, "env", "prod,staging")', { labels })).toBe(true);
    expect(ev('matchLabel(labels, "env", "!production")', { labels })).toBe(true);
    expect(ev('matchLabel(labels, "env", "!staging")', { labels })).toBe(false);
    expect(ev('matchLabel(labels, "optional", "!*")', { labels })).toBe(true);
    expect(ev('matchLabel(labels, "region", "!*")', { labels })).toBe(false);
  });
});

describe('CEL aws.*', () => {
  it('fromAWSMap (also as aws.fromAWSMap) and arnToMap', () => {
    const dims = [
      { Name: 'hello', Value: 'world' },
      { Name: 'John', Value: 'Doe' },
    ];
    expect(ev('fromAWSMap(x).hello', { x: dims })).toBe('world');
    expect(ev('aws.fromAWSMap(x).merge({"arn": "a"})', { x: dims })).toEqual({ hello: 'world', John: 'Doe', arn: 'a' });
    expect(ev('aws.arnToMap("arn:aws:sns:eu-west-1:123:MMS-Topic")')).toEqual({
      service: 'sns',
      region: 'eu-west-1',
      account: '123',
      resource: 'MMS-Topic',
    });
    expect(ev('arnToMap("arn:aws:s3:::bucket/key:x").resource')).toBe('bucket/key:x');
    expect(() => ev('arnToMap("nope")')).toThrow(/not an ARN/);
  });
});

describe('CEL k8s.*', () => {
  it('isHealthy, isReady, getHealth, getStatus for pods (bare or wrapped in Object)', () => {
    expect(ev('k8s.isHealthy(p)', { p: pod('Running', 'True') })).toBe(true);
    expect(ev('k8s.isReady(p)', { p: { Object: pod('Running', 'True') } })).toBe(true);
    expect(ev('k8s.isHealthy(p)', { p: pod('Running', 'False', 'CrashLoopBackOff') })).toBe(false);
    expect(ev('k8s.getHealth(p).status', { p: pod('Running', 'False', 'CrashLoopBackOff') })).toBe('CrashLoopBackOff');
    expect(ev('k8s.getStatus(p)', { p: pod('Succeeded', 'False') })).toBe('Completed');
    expect(ev('k8s.getHealth(p).health', { p: pod('Pending', 'False') })).toBe('unknown');
    expect(ev('dyn(results).all(r, k8s.isHealthy(r))', { results: [{ Object: pod('Running', 'True') }] })).toBe(true);
  });

  it('workloads by ready replicas, others by conditions, plain objects healthy', () => {
    const deploy = (ready: number) => ({ kind: 'Deployment', spec: { replicas: 2 }, status: { readyReplicas: ready } });
    expect(ev('k8s.isHealthy(d)', { d: deploy(2) })).toBe(true);
    expect(ev('k8s.getHealth(d).message', { d: deploy(1) })).toBe('1/2 ready');
    expect(ev('k8s.getHealth(d).health', { d: deploy(0) })).toBe('unhealthy');
    const cert = (s: string) => ({ kind: 'Certificate', status: { conditions: [{ type: 'Ready', status: s }] } });
    expect(ev('k8s.isReady(c)', { c: cert('True') })).toBe(true);
    expect(ev('k8s.isReady(c)', { c: cert('False') })).toBe(false);
    expect(ev('k8s.isHealthy({"kind": "ConfigMap", "metadata": {"name": "x"}})')).toBe(true);
  });

  it('cpuAsMillicores, memoryAsBytes, labels', () => {
    expect(ev('k8s.cpuAsMillicores("10m")')).toBe(10);
    expect(ev('k8s.cpuAsMillicores("1.234")')).toBe(1234);
    expect(ev('k8s.memoryAsBytes("10Ki")')).toBe(10240);
    expect(ev('k8s.memoryAsBytes("1.234Gi")')).toBe(1324997410);
    expect(() => ev('k8s.memoryAsBytes("lots")')).toThrow(/not a Kubernetes quantity/);
    expect(ev('k8s.labels(p)', { p: pod('Running', 'True') })).toEqual({ namespace: 'kube-system', 'k8s-app': 'dns' });
  });
});
