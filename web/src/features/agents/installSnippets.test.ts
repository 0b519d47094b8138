import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  agentCommand,
  agentConfigDirCommand,
  containerCommand,
  dnsName,
  fluxManifest,
  helmCommand,
  helmValues,
  installSnippets,
  shellQuote,
  type InstallTarget,
} from './installSnippets';

const target: InstallTarget = {
  upstreamUrl: 'https://ops.example.com',
  agentName: 'edge-1',
  token: 'tok_ABC.123',
  version: '0.4.0',
  kubernetes: { enabled: true, interval: '5m' },
  pushTelemetry: { enabled: false, topologyName: '' },
};

describe('install snippets', () => {
  it('gives the opsdeck agent command line with upstream, token and name', () => {
    expect(agentCommand(target)).toBe(
      'opsdeck agent \\\n  --upstream https://ops.example.com \\\n  --token tok_ABC.123 \\\n  --name edge-1',
    );
  });

  it('gives the command line with a directory of resources the agent applies and watches', () => {
    const text = agentConfigDirCommand(target);
    expect(text).toContain('OPSDECK_AGENT_CONFIG_DIR');
    expect(text.endsWith('--name edge-1 \\\n  --config-dir /etc/opsdeck-agent/resources')).toBe(true);
    expect(installSnippets(target)[0]!.blocks.map((b) => b.title)).toEqual([
      'Run the agent',
      'With a directory of resources',
    ]);
  });

  it('gives a container run line with the upstream and token as environment variables', () => {
    const line = containerCommand(target);
    expect(line).toContain('docker run -d --name opsdeck-agent-edge-1');
    expect(line).toContain('-e OPSDECK_UPSTREAM_URL=https://ops.example.com');
    expect(line).toContain('-e OPSDECK_AGENT_TOKEN=tok_ABC.123');
    expect(line).toContain('-e OPSDECK_AGENT_NAME=edge-1');
    expect(line).toContain('-v opsdeck-agent-edge-1:/data -e DATA_DIR=/data');
    expect(line.endsWith('ghcr.io/opsdeck/opsdeck:0.4.0 agent')).toBe(true);
    expect(containerCommand({ ...target, version: undefined })).toContain('ghcr.io/opsdeck/opsdeck:latest agent');
  });

  it('gives Helm values with the upstream url, agent name, token and install options', () => {
    expect(parse(helmValues(target))).toEqual({
      upstream: { url: 'https://ops.example.com', agentName: 'edge-1', token: 'tok_ABC.123' },
      kubernetes: { enabled: true, interval: '5m' },
      pushTelemetry: { enabled: false },
      image: { tag: '0.4.0' },
    });
    const telemetry = { ...target, pushTelemetry: { enabled: true, topologyName: 'edge' } };
    expect(parse(helmValues(telemetry)).pushTelemetry).toEqual({ enabled: true, topologyName: 'edge' });
    expect(helmCommand(target)).toContain('helm install opsdeck-agent-edge-1 opsdeck/opsdeck-agent');
  });

  it('gives a Flux HelmRepository and HelmRelease carrying the same values', () => {
    const docs = parseAllDocuments(fluxManifest(target)).map((d) => d.toJSON());
    expect(docs.map((d) => d.kind)).toEqual(['HelmRepository', 'HelmRelease']);
    expect(docs[1].spec.values.upstream).toEqual({
      url: 'https://ops.example.com',
      agentName: 'edge-1',
      token: 'tok_ABC.123',
    });
  });

  it('quotes names and tokens a shell would split or expand', () => {
    expect(shellQuote('plain-name_1.2')).toBe('plain-name_1.2');
    expect(shellQuote('two words')).toBe("'two words'");
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    const spaced = { ...target, agentName: "Bob's edge" };
    expect(agentCommand(spaced)).toContain(`--name 'Bob'\\''s edge'`);
    expect(containerCommand(spaced)).toContain('--name opsdeck-agent-bob-s-edge');
  });

  it('makes DNS-safe release names', () => {
    expect(dnsName('Edge Site #1')).toBe('edge-site-1');
    expect(dnsName('***')).toBe('agent');
  });

  it('offers the command line, container, Helm CLI and Flux, each with the token in it', () => {
    const snippets = installSnippets(target);
    expect(snippets.map((s) => s.label)).toEqual(['Command line', 'Container', 'Helm CLI', 'Flux']);
    for (const s of snippets) expect(s.blocks.some((b) => b.text.includes('tok_ABC.123'))).toBe(true);
  });
});
