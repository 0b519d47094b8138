// JSON Schemas of the settings resource documents, checked by the code editor and before saving.
import type { JsonSchema } from '@opsdeck/common/jsonSchema';
import { canaryResourceJsonSchema } from '@opsdeck/common/specs/canary';
import { teamResourceJsonSchema } from '@opsdeck/common/specs/teams';

/** Keyed by table; for canaries the schema is of the whole Canary resource the Code tab shows. */
export const RESOURCE_SCHEMAS: Record<string, JsonSchema> = {
  teams: teamResourceJsonSchema as JsonSchema,
  canaries: canaryResourceJsonSchema,
};
