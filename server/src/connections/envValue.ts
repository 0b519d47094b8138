// Values that may be written inline or come from a secret or config map (canary-checker's EnvValue /
// EnvVar): their schemas, and resolving one to its string.
import { z } from 'zod';

/** A value that may be given inline or come from a secret or config map (FORMATS.md). */
export type EnvValue =
  | string
  | {
      value?: string;
      valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
    };

/** `{name, key}` of a secretKeyRef / configMapKeyRef. */
const keyRefSchema = z.looseObject({ name: z.string(), key: z.string() });

/** `{value}` or `{valueFrom: {secretKeyRef|configMapKeyRef: {name, key}}}`, or a plain string. */
export const envValueSchema = z.union([
  z.string(),
  z.looseObject({
    value: z.string().optional(),
    valueFrom: z
      .looseObject({
        secretKeyRef: keyRefSchema.optional(),
        configMapKeyRef: keyRefSchema.optional(),
      })
      .optional(),
  }),
]);

/** One entry of an `env:` or `headers:` list. */
export const envVarSchema = z.looseObject({
  name: z.string({ error: 'name is required' }).min(1, 'name is required'),
  value: z.string().optional(),
  valueFrom: z
    .looseObject({
      secretKeyRef: keyRefSchema.optional(),
      configMapKeyRef: keyRefSchema.optional(),
    })
    .optional(),
});

export type EnvVarSpec = z.infer<typeof envVarSchema>;

/**
 * Resolves an EnvValue to its string. Secret and config map references need a Kubernetes cluster,
 * which the server does not read from: they throw an error saying so.
 */
export async function resolveEnvValue(value: EnvValue | undefined): Promise<string | undefined> {
  if (value === undefined || typeof value === 'string') return value;
  if (value.value !== undefined) return value.value;
  const ref = value.valueFrom?.secretKeyRef ?? value.valueFrom?.configMapKeyRef;
  if (ref) {
    const kind = value.valueFrom?.secretKeyRef ? 'secretKeyRef' : 'configMapKeyRef';
    throw new Error(
      `valueFrom.${kind} ${ref.name}/${ref.key} needs a Kubernetes cluster to read from, and no kubeconfig is configured; use a value or a connection instead`,
    );
  }
  return undefined;
}
