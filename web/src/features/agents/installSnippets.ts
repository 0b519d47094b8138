// The snippets of the 'Installation Instructions' dialog (spec/1 §2, §4 create flow): how to run a new
// agent against this console, with its upstream URL, name and one-time access token filled in — the
// `opsdeck agent` command line, a container run line, Helm values with the Helm CLI, and a Flux release.
import { stringify } from 'yaml';
import type { KubernetesInterval } from './agentForm';

/**
 * Where the agent build is published. The container image is the console's own build (agent mode is
 * a command of the same binary); the chart name and repository are placeholders until one is published.
 */
export const AGENT_DISTRIBUTION = {
  image: 'ghcr.io/opsdeck/opsdeck',
  chartRepoName: 'opsdeck',
  chartRepoUrl: 'https://charts.opsdeck.dev',
  chart: 'opsdeck-agent',
  namespace: 'opsdeck',
} as const;

export interface InstallTarget {
  /** The console's public URL: the agent's upstream. */
  upstreamUrl: string;
  agentName: string;
  token: string;
  /** The image tag: the console's backend version when known. */
  version?: string;
  kubernetes: { enabled: boolean; interval: KubernetesInterval };
  pushTelemetry: { enabled: boolean; topologyName: string };
}

/** A word for a POSIX shell: as it is when it is plain, else single-quoted. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A command over several lines, one option a line, joined with backslashes. */
const multiline = (parts: string[]) => parts.join(' \\\n  ');

/** A name safe for a container or Helm release: lowercase letters, digits and hyphens. */
export function dnsName(value: string): string {
  const name = value
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return name || 'agent';
}

const imageOf = (t: InstallTarget) => `${AGENT_DISTRIBUTION.image}:${t.version ?? 'latest'}`;

export function agentCommand(t: InstallTarget): string {
  return multiline([
    'opsdeck agent',
    `--upstream ${shellQuote(t.upstreamUrl)}`,
    `--token ${shellQuote(t.token)}`,
    `--name ${shellQuote(t.agentName)}`,
  ]);
}

/**
 * The same command with a directory of resources (Canary, ScrapeConfig, Topology, Playbook, ...):
 * every *.yaml / *.yml file in it is applied to the agent at start and again when it changes.
 */
export function agentConfigDirCommand(t: InstallTarget): string {
  return [
    '# Every *.yaml / *.yml file in the directory is applied to the agent, again when it changes;',
    '# a file removed deletes what it applied. (Environment: OPSDECK_AGENT_CONFIG_DIR.)',
    multiline([
      'opsdeck agent',
      `--upstream ${shellQuote(t.upstreamUrl)}`,
      `--token ${shellQuote(t.token)}`,
      `--name ${shellQuote(t.agentName)}`,
      '--config-dir /etc/opsdeck-agent/resources',
    ]),
  ].join('\n');
}

export function containerCommand(t: InstallTarget): string {
  const name = `opsdeck-agent-${dnsName(t.agentName)}`;
  return multiline([
    `docker run -d --name ${name} --restart unless-stopped`,
    `-v ${name}:/data -e DATA_DIR=/data`,
    `-e OPSDECK_UPSTREAM_URL=${shellQuote(t.upstreamUrl)}`,
    `-e OPSDECK_AGENT_TOKEN=${shellQuote(t.token)}`,
    `-e OPSDECK_AGENT_NAME=${shellQuote(t.agentName)}`,
    `${imageOf(t)} agent`,
  ]);
}

/** The chart's values: upstream, the install options and the image tag. */
export function helmValuesObject(t: InstallTarget) {
  return {
    upstream: { url: t.upstreamUrl, agentName: t.agentName, token: t.token },
    kubernetes: { enabled: t.kubernetes.enabled, interval: t.kubernetes.interval },
    pushTelemetry: t.pushTelemetry.enabled
      ? { enabled: true, topologyName: t.pushTelemetry.topologyName }
      : { enabled: false },
    ...(t.version ? { image: { tag: t.version } } : {}),
  };
}

export function helmValues(t: InstallTarget): string {
  return stringify(helmValuesObject(t));
}

/** The Helm CLI: add the chart repository, then install the release with values.yaml (helmValues). */
export function helmCommand(t: InstallTarget): string {
  const d = AGENT_DISTRIBUTION;
  return [
    `helm repo add ${d.chartRepoName} ${d.chartRepoUrl}`,
    'helm repo update',
    multiline([
      `helm install opsdeck-agent-${dnsName(t.agentName)} ${d.chartRepoName}/${d.chart}`,
      `--namespace ${d.namespace} --create-namespace`,
      '--values values.yaml',
    ]),
  ].join('\n');
}

/** A Flux HelmRepository and HelmRelease with the same values. */
export function fluxManifest(t: InstallTarget): string {
  const d = AGENT_DISTRIBUTION;
  const repository = {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'HelmRepository',
    metadata: { name: d.chartRepoName, namespace: d.namespace },
    spec: { interval: '1h', url: d.chartRepoUrl },
  };
  const release = {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: `opsdeck-agent-${dnsName(t.agentName)}`, namespace: d.namespace },
    spec: {
      interval: '10m',
      chart: {
        spec: { chart: d.chart, sourceRef: { kind: 'HelmRepository', name: d.chartRepoName } },
      },
      values: helmValuesObject(t),
    },
  };
  return `${stringify(repository)}---\n${stringify(release)}`;
}

export interface InstallSnippet {
  id: 'cli' | 'container' | 'helm' | 'flux';
  label: string;
  /** Blocks shown in order, each with its own copy button. */
  blocks: { title: string; text: string }[];
}

export function installSnippets(t: InstallTarget): InstallSnippet[] {
  return [
    {
      id: 'cli',
      label: 'Command line',
      blocks: [
        { title: 'Run the agent', text: agentCommand(t) },
        { title: 'With a directory of resources', text: agentConfigDirCommand(t) },
      ],
    },
    { id: 'container', label: 'Container', blocks: [{ title: 'Run the agent container', text: containerCommand(t) }] },
    {
      id: 'helm',
      label: 'Helm CLI',
      blocks: [
        { title: 'values.yaml', text: helmValues(t) },
        { title: 'Install the chart', text: helmCommand(t) },
      ],
    },
    { id: 'flux', label: 'Flux', blocks: [{ title: 'HelmRepository and HelmRelease', text: fluxManifest(t) }] },
  ];
}
