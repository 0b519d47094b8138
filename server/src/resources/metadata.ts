// The part every Kubernetes-style resource shares: apiVersion and kind (each a fixed literal) and
// metadata (a DNS-like name, an optional namespace, labels as strings). Spread into a resource's
// zod schema next to its own spec; storedResource() gives what every parsed resource keeps.
import { z } from 'zod';
import type { ResourceDocument } from './yaml.js';

/** Label values as written (strings, numbers or booleans), kept as strings. */
export const labelsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String));

export const metadataSchema = z.looseObject({
  name: z
    .string({ error: 'metadata.name is required' })
    .min(1, 'metadata.name is required')
    .max(253)
    .regex(
      /^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/i,
      'use letters, digits, "-", "_" and "." (starting and ending with a letter or digit)',
    ),
  namespace: z.string().min(1).max(253).optional(),
  labels: labelsSchema.optional(),
});

/** apiVersion, kind and metadata of a resource of this kind: `z.looseObject({ ...resourceHeader(v, k), spec })`. */
export function resourceHeader<V extends string, K extends string>(apiVersion: V, kind: K) {
  return {
    apiVersion: z.literal(apiVersion, { error: `apiVersion must be ${apiVersion}` }),
    kind: z.literal(kind, { error: `kind must be ${kind}` }),
    metadata: metadataSchema,
  };
}

/** What every parsed scheduled resource keeps (and its table stores). */
export interface StoredResource {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  schedule: string;
  /** The whole resource as written (kept for reading back as YAML). */
  resource: Record<string, unknown>;
}

/** A validated resource's names (namespace: default), labels and schedule, with the document as written. */
export function storedResource(
  doc: ResourceDocument,
  metadata: { name: string; namespace?: string; labels?: Record<string, string> },
  schedule: string,
): StoredResource {
  return {
    name: metadata.name,
    namespace: metadata.namespace ?? 'default',
    labels: metadata.labels ?? {},
    schedule,
    resource: doc.data as Record<string, unknown>,
  };
}
