// JSON Schemas of the settings resource documents, checked by the code editor and before saving.
import { z } from 'zod';
import type { JsonSchema, JsonSchemaObject } from '@opsdeck/common/jsonSchema';
import { loggingBackendSpecSchema } from '@opsdeck/common/logs';
import { canaryResourceJsonSchema } from '@opsdeck/common/specs/canary';
import { INCIDENT_SEVERITIES, INCIDENT_TYPES } from '@opsdeck/common/incidents';
import { teamResourceJsonSchema } from '@opsdeck/common/specs/teams';

/**
 * The outline of a Topology resource; the server checks the rest (lookups, inline canaries,
 * selectors) and answers with the line and column of each problem.
 */
const componentSchema: JsonSchemaObject = {
  type: 'object',
  properties: {
    name: { type: ['string', 'number'] },
    type: { type: 'string' },
    icon: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
    properties: { type: 'array', items: { type: 'object' } },
    checks: { type: 'array', items: { type: 'object' } },
    configs: { type: 'array', items: { type: 'object' } },
    components: { type: 'array', items: { type: 'object' } },
    lookup: { type: 'object' },
    forEach: { type: 'object' },
  },
};

export const topologyResourceJsonSchema: JsonSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: 'canaries.flanksource.com/v1' },
    kind: { const: 'Topology' },
    metadata: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1 },
        namespace: { type: 'string' },
        labels: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
      },
    },
    spec: {
      type: 'object',
      properties: {
        ...componentSchema.properties,
        schedule: { type: 'string' },
        components: { type: 'array', items: componentSchema },
      },
    },
  },
};

/** The outline of a ScrapeConfig; the server checks each scraper type and answers with line and column. */
export const scrapeConfigResourceJsonSchema: JsonSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: 'configs.flanksource.com/v1' },
    kind: { const: 'ScrapeConfig' },
    metadata:
      topologyResourceJsonSchema.type === 'object'
        ? (topologyResourceJsonSchema.properties!.metadata as JsonSchema)
        : {},
    spec: {
      type: 'object',
      properties: {
        schedule: { type: 'string' },
        full: { type: 'boolean' },
        retention: { type: 'object' },
        file: { type: 'array', items: { type: 'object' } },
        http: { type: 'array', items: { type: 'object' } },
        sql: { type: 'array', items: { type: 'object' } },
        exec: { type: 'array', items: { type: 'object' } },
        kubernetes: { type: 'array', items: { type: 'object' } },
      },
    },
  },
};

/** An incident rule row (name and spec), as the rule engine reads it (server/src/incidents/rules.ts). */
export const incidentRuleJsonSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'spec'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    spec: {
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string' },
        priority: { type: 'integer' },
        components: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              id: { type: 'string' },
              name: { type: 'string' },
              namespace: { type: 'string' },
              type: { type: 'string' },
              types: { type: ['array', 'string'], items: { type: 'string' } },
              labelSelector: { type: 'string' },
            },
          },
        },
        filter: {
          type: 'object',
          additionalProperties: false,
          properties: {
            status: { type: 'array', items: { type: 'string', minLength: 1 } },
            severity: { type: 'array', items: { type: 'string', minLength: 1 } },
          },
        },
        template: {
          type: 'object',
          additionalProperties: false,
          properties: {
            title: { type: 'string', minLength: 1 },
            description: { type: 'string' },
            severity: { enum: [...INCIDENT_SEVERITIES] },
            type: { enum: [...INCIDENT_TYPES] },
          },
        },
        breakOnMatch: { type: 'boolean' },
        autoResolve: {
          type: 'object',
          additionalProperties: false,
          properties: { enabled: { type: 'boolean' }, timeout: { type: 'string' } },
        },
      },
    },
  },
};

/** A logging_backends row as the form and the Code tab hold it: the spec is the LoggingBackend's spec. */
export const loggingBackendRowJsonSchema = z.toJSONSchema(
  z.object({
    name: z.string().min(1),
    namespace: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    spec: loggingBackendSpecSchema,
  }),
  // What is written (labels of entries may be numbers until the server reads them as text).
  { io: 'input' },
) as JsonSchema;

/** Keyed by table; for applied resources the schema is of the whole resource the Code tab shows. */
export const RESOURCE_SCHEMAS: Record<string, JsonSchema> = {
  teams: teamResourceJsonSchema as JsonSchema,
  canaries: canaryResourceJsonSchema,
  topologies: topologyResourceJsonSchema,
  config_scrapers: scrapeConfigResourceJsonSchema,
  incident_rules: incidentRuleJsonSchema,
  logging_backends: loggingBackendRowJsonSchema,
};
