// The Helm chart (deploy/helm/opsdeck) rendered for two value sets — the defaults, and ingress on with
// PostgreSQL and the keys from existing Secrets — and every manifest parsed with a YAML parser: the
// kinds, the probes on /healthz and /readyz, the environment and where each secret comes from.
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadChart, renderChart, type Values } from './helpers/helm.js';
import { root } from './helpers/processes.js';

const chart = loadChart(path.join(root, 'deploy/helm/opsdeck'));

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  stringData?: Record<string, string>;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef: { name: string; key: string } };
}
interface Container {
  name: string;
  image: string;
  env: EnvVar[];
  envFrom: unknown[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  startupProbe: { httpGet: { path: string; port: string } };
  resources: Record<string, unknown>;
  securityContext: Record<string, unknown>;
}

/** The rendered manifests (empty documents left out), and NOTES.txt. */
function render(values: Values = {}) {
  const files = renderChart(chart, values, { name: 'ops', namespace: 'tools' });
  const manifests: Manifest[] = [];
  for (const [file, text] of Object.entries(files)) {
    if (!file.endsWith('.yaml')) continue;
    for (const doc of parseAllDocuments(text)) {
      expect(doc.errors, `${file}:\n${text}`).toEqual([]);
      const m = doc.toJS() as Manifest | null;
      if (m) manifests.push(m);
    }
  }
  const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);
  const deployment = byKind('Deployment')[0]!;
  const pod = (deployment.spec!.template as { spec: Record<string, unknown> }).spec;
  const container = (pod.containers as Container[])[0]!;
  const env = Object.fromEntries(container.env.map((e) => [e.name, e]));
  return { files, manifests, byKind, deployment, pod, container, env, notes: files['NOTES.txt']! };
}

describe('the Helm chart', () => {
  it('renders with the default values: deployment, service, service account, probes, no ingress', () => {
    const r = render();
    expect(r.manifests.map((m) => m.kind).sort()).toEqual(['Deployment', 'Service', 'ServiceAccount']);
    for (const m of r.manifests) {
      expect(m.metadata.name).toBe('ops-opsdeck');
      expect(m.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': 'opsdeck',
        'app.kubernetes.io/instance': 'ops',
        'app.kubernetes.io/version': chart.meta.appVersion,
        'helm.sh/chart': `opsdeck-${chart.meta.version}`,
      });
    }
    const spec = r.deployment.spec as {
      replicas: number;
      selector: { matchLabels: Record<string, string> };
      template: { metadata: { labels: Record<string, string>; annotations: Record<string, string> } };
      strategy: { rollingUpdate: { maxUnavailable: number } };
    };
    expect(spec.replicas).toBe(2);
    expect(spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    expect(spec.template.metadata.labels).toEqual(spec.selector.matchLabels);
    expect(spec.template.metadata.annotations['checksum/secrets']).toMatch(/^[0-9a-f]{64}$/);
    const service = r.byKind('Service')[0]!.spec as {
      selector: unknown;
      ports: { port: number; targetPort: string }[];
    };
    expect(service.selector).toEqual(spec.selector.matchLabels);
    expect(service.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);

    expect(r.pod.serviceAccountName).toBe('ops-opsdeck');
    expect(r.pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(r.container.image).toBe(`ghcr.io/opsdeck/opsdeck:${chart.meta.appVersion}`);
    expect(r.container.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
    expect(r.container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(r.container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(r.container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(r.container.resources).toEqual({ requests: { cpu: '250m', memory: '384Mi' }, limits: { memory: '1Gi' } });
    expect(r.container.securityContext).toMatchObject({ allowPrivilegeEscalation: false });
    // Nothing secret configured: no Secret, no secret references, and NOTES.txt says what that means.
    expect(r.byKind('Secret')).toEqual([]);
    expect(Object.keys(r.env).sort()).toEqual(['DATA_DIR', 'LOG_LEVEL', 'OPSDECK_ENGINES', 'PORT', 'TRUST_PROXY']);
    expect(r.env.PORT!.value).toBe('8080');
    expect(r.env.OPSDECK_ENGINES!.value).toBe('true');
    expect(r.notes).toContain('WARNING: no PostgreSQL is configured');
    expect(r.notes).toContain('port-forward service/ops-opsdeck 8080:80');
    expect(r.notes).toContain('no OPSDECK_ENCRYPTION_KEY is set');
  });

  it('with PostgreSQL by URL and keys as values: one Secret holds them and the pod refers to it', () => {
    const r = render({
      database: { url: 'postgres://opsdeck:pw@db:5432/opsdeck', poolSize: 15 },
      secrets: { encryptionKey: 'k'.repeat(64), authSecret: 'a long secret' },
      env: { SMTP_FROM: 'Opsdeck <ops@example.com>', CHECK_RETENTION_DAYS: 14 },
    });
    const secret = r.byKind('Secret')[0]!;
    expect(secret.metadata.name).toBe('ops-opsdeck');
    expect(secret.stringData).toEqual({
      DATABASE_URL: 'postgres://opsdeck:pw@db:5432/opsdeck',
      OPSDECK_ENCRYPTION_KEY: 'k'.repeat(64),
      AUTH_SECRET: 'a long secret',
    });
    for (const [name, key] of [
      ['DATABASE_URL', 'DATABASE_URL'],
      ['OPSDECK_ENCRYPTION_KEY', 'OPSDECK_ENCRYPTION_KEY'],
      ['AUTH_SECRET', 'AUTH_SECRET'],
    ])
      expect(r.env[name!]).toEqual({ name, valueFrom: { secretKeyRef: { name: 'ops-opsdeck', key } } });
    expect(r.env.DATABASE_POOL_SIZE!.value).toBe('15');
    expect(r.env.STATEMENT_TIMEOUT_MS!.value).toBe('30000');
    expect(r.env.SMTP_FROM!.value).toBe('Opsdeck <ops@example.com>');
    expect(r.env.CHECK_RETENTION_DAYS!.value).toBe('14');
    // No secret value in the pod spec itself.
    expect(JSON.stringify(r.deployment)).not.toContain('a long secret');
    expect(JSON.stringify(r.deployment)).not.toContain('pw@db');
    expect(r.notes).not.toContain('WARNING');
  });

  it('with the ingress on and existing Secrets: an Ingress, references to those Secrets, no chart Secret', () => {
    const r = render({
      replicaCount: 3,
      image: { tag: '1.2.3' },
      publicUrl: 'https://opsdeck.example.org',
      database: { existingSecret: 'pg-credentials', existingSecretKey: 'url' },
      secrets: { existingSecret: 'opsdeck-keys', encryptionKeyKey: 'encryption', authSecretKey: 'auth' },
      ingress: {
        enabled: true,
        className: 'nginx',
        host: 'opsdeck.example.org',
        annotations: { 'cert-manager.io/cluster-issuer': 'letsencrypt' },
        tls: { enabled: true, secretName: 'opsdeck-tls' },
      },
      serviceAccount: { create: false, name: 'ops-reader' },
      engines: false,
    });
    expect(r.manifests.map((m) => m.kind).sort()).toEqual(['Deployment', 'Ingress', 'Service']);
    expect((r.deployment.spec as { replicas: number }).replicas).toBe(3);
    expect(r.container.image).toBe('ghcr.io/opsdeck/opsdeck:1.2.3');
    expect(r.pod.serviceAccountName).toBe('ops-reader');
    expect(r.env.DATABASE_URL!.valueFrom).toEqual({ secretKeyRef: { name: 'pg-credentials', key: 'url' } });
    expect(r.env.OPSDECK_ENCRYPTION_KEY!.valueFrom).toEqual({
      secretKeyRef: { name: 'opsdeck-keys', key: 'encryption' },
    });
    expect(r.env.AUTH_SECRET!.valueFrom).toEqual({ secretKeyRef: { name: 'opsdeck-keys', key: 'auth' } });
    expect(r.env.PUBLIC_URL!.value).toBe('https://opsdeck.example.org');
    expect(r.env.OPSDECK_ENGINES!.value).toBe('false');
    const ingress = r.byKind('Ingress')[0]!;
    expect(ingress.apiVersion).toBe('networking.k8s.io/v1');
    expect(ingress.metadata.annotations).toEqual({ 'cert-manager.io/cluster-issuer': 'letsencrypt' });
    expect(ingress.spec).toEqual({
      ingressClassName: 'nginx',
      tls: [{ hosts: ['opsdeck.example.org'], secretName: 'opsdeck-tls' }],
      rules: [
        {
          host: 'opsdeck.example.org',
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: 'ops-opsdeck', port: { name: 'http' } } },
              },
            ],
          },
        },
      ],
    });
    expect(r.notes).toContain('Open it at https://opsdeck.example.org/');
    expect(r.notes).not.toContain('WARNING');
  });

  it('documents every value: each key in values.yaml has a comment above it or its section', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(path.join(chart.dir, 'values.yaml'), 'utf8');
    const lines = text.split('\n');
    const undocumented = lines.flatMap((line, i) => {
      const top = /^([a-zA-Z]\w*):/.exec(line);
      if (!top) return [];
      return lines[i - 1]?.trim().startsWith('#') ? [] : [top[1]!];
    });
    expect(undocumented).toEqual([]);
  });
});
