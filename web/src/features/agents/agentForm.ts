// The agent form (spec/1 §3 Agent form, §5, §9) and how it maps onto an agent row. Name is required
// (read-only when editing); properties are the agent's labels as key/value rows; kubernetes
// {enabled, interval} and pushTelemetry {enabled, topologyName} are the install options: they fill the
// Helm values and are kept in the agent's properties under reserved keys, so an edit shows them again.
import { AGENT_NAME_MESSAGE, AGENT_NAME_PATTERN } from '@opsdeck/common/agents';
import { z } from 'zod';

export const REQUIRED = 'This field is required';
/** The server's rule for agent names (docs/api.md "Agents"), shared with server/src/agents/generate.ts. */
export { AGENT_NAME_MESSAGE, AGENT_NAME_PATTERN } from '@opsdeck/common/agents';

/** Kubernetes scrape intervals (spec/1 §9); 30m by default, off by default. */
export const KUBERNETES_INTERVALS = ['1m', '5m', '10m', '30m', '1h', '2h', '6h', '12h', '24h'] as const;
export type KubernetesInterval = (typeof KUBERNETES_INTERVALS)[number];
export const DEFAULT_KUBERNETES_INTERVAL: KubernetesInterval = '30m';

/** Where the install options live among the properties; the key/value editor does not show them. */
export const OPTION_KEYS = {
  kubernetesEnabled: 'kubernetes.enabled',
  kubernetesInterval: 'kubernetes.interval',
  pushTelemetryEnabled: 'pushTelemetry.enabled',
  pushTelemetryTopologyName: 'pushTelemetry.topologyName',
} as const;
const RESERVED_KEYS: ReadonlySet<string> = new Set(Object.values(OPTION_KEYS));

const propertyRow = z.object({ key: z.string(), value: z.string() });

export const agentFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, REQUIRED)
      .refine((name) => !name || AGENT_NAME_PATTERN.test(name), AGENT_NAME_MESSAGE),
    properties: z.array(propertyRow),
    kubernetes: z.object({ enabled: z.boolean(), interval: z.enum(KUBERNETES_INTERVALS) }),
    pushTelemetry: z.object({ enabled: z.boolean(), topologyName: z.string().trim() }),
  })
  .superRefine((values, ctx) => {
    const seen = new Set<string>();
    values.properties.forEach((row, i) => {
      const key = row.key.trim();
      if (!key && !row.value.trim()) return; // an empty row is ignored
      if (!key) ctx.addIssue({ code: 'custom', path: ['properties', i, 'key'], message: REQUIRED });
      else if (RESERVED_KEYS.has(key))
        ctx.addIssue({ code: 'custom', path: ['properties', i, 'key'], message: `${key} is set by the form` });
      else if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['properties', i, 'key'], message: `Duplicate key ${key}` });
      seen.add(key);
    });
    if (values.pushTelemetry.enabled && !values.pushTelemetry.topologyName)
      ctx.addIssue({ code: 'custom', path: ['pushTelemetry', 'topologyName'], message: REQUIRED });
  });

export type AgentFormValues = z.infer<typeof agentFormSchema>;

export function emptyAgentForm(): AgentFormValues {
  return {
    name: '',
    properties: [{ key: '', value: '' }],
    kubernetes: { enabled: false, interval: DEFAULT_KUBERNETES_INTERVAL },
    pushTelemetry: { enabled: false, topologyName: '' },
  };
}

const isInterval = (v: string | undefined): v is KubernetesInterval =>
  (KUBERNETES_INTERVALS as readonly string[]).includes(v ?? '');

/** The form for a stored agent: its labels as rows, the install options from the reserved keys. */
export function agentToForm(agent: { name: string; properties: Record<string, string> | null }): AgentFormValues {
  const props = agent.properties ?? {};
  const labels = Object.entries(props)
    .filter(([key]) => !RESERVED_KEYS.has(key))
    .map(([key, value]) => ({ key, value: String(value) }));
  const interval = props[OPTION_KEYS.kubernetesInterval];
  return {
    name: agent.name,
    properties: labels.length ? labels : [{ key: '', value: '' }],
    kubernetes: {
      enabled: props[OPTION_KEYS.kubernetesEnabled] === 'true',
      interval: isInterval(interval) ? interval : DEFAULT_KUBERNETES_INTERVAL,
    },
    pushTelemetry: {
      enabled: props[OPTION_KEYS.pushTelemetryEnabled] === 'true',
      topologyName: props[OPTION_KEYS.pushTelemetryTopologyName] ?? '',
    },
  };
}

/** The properties to store: the labels (empty rows dropped, trimmed) and the install options. */
export function formToProperties(values: AgentFormValues): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const row of values.properties) {
    const key = row.key.trim();
    if (key) properties[key] = row.value.trim();
  }
  properties[OPTION_KEYS.kubernetesEnabled] = String(values.kubernetes.enabled);
  properties[OPTION_KEYS.kubernetesInterval] = values.kubernetes.interval;
  properties[OPTION_KEYS.pushTelemetryEnabled] = String(values.pushTelemetry.enabled);
  if (values.pushTelemetry.enabled)
    properties[OPTION_KEYS.pushTelemetryTopologyName] = values.pushTelemetry.topologyName.trim();
  return properties;
}

/** An agent's labels without the install options (the table and badges show these). */
export function agentLabels(properties: Record<string, string> | null | undefined): [string, string][] {
  return Object.entries(properties ?? {}).filter(([key]) => !RESERVED_KEYS.has(key));
}
