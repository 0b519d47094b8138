// The team resource (spec/3 "Resource name kinds": Teams have name, spec and icon): the zod
// schema that the server validates with, and the JSON Schema the settings code editor checks.
import { z } from 'zod';
import type { JsonSchema } from '../jsonSchema.js';

const componentSelector = z
  .object({
    name: z.string().optional(),
    namespace: z.string().optional(),
    types: z.array(z.string()).optional(),
    labelSelector: z.string().optional(),
    fieldSelector: z.string().optional(),
  })
  .strict();

const teamNotification = z
  .object({
    connection: z.string().optional(),
    url: z.string().optional(),
    filter: z.string().optional(),
    properties: z.record(z.string(), z.string()).optional(),
  })
  .strict();

export const teamSpecSchema = z
  .object({
    components: z.array(componentSelector).optional(),
    notifications: z.array(teamNotification).optional(),
  })
  .strict();

/** A team as written in YAML/JSON: the editable part of a `teams` row. */
export const teamResourceSchema = z
  .object({
    name: z.string().min(1),
    icon: z.string().optional(),
    spec: teamSpecSchema,
  })
  .strict();

export type TeamSpec = z.infer<typeof teamSpecSchema>;
export type TeamResource = z.infer<typeof teamResourceSchema>;

export const teamResourceJsonSchema = z.toJSONSchema(teamResourceSchema) as JsonSchema;
