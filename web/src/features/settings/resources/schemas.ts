// JSON Schemas of the settings resource documents, checked by the code editor and before saving.
import type { JsonSchema } from '@opsdeck/common/jsonSchema';
import { teamResourceJsonSchema } from '@opsdeck/common/specs/teams';

export const RESOURCE_SCHEMAS: Record<string, JsonSchema> = {
  teams: teamResourceJsonSchema as JsonSchema,
};
