// The agent id of rows that belong to this server itself (not pushed by an agent): the default of
// every `agent_id` column in the migrations. Defined once in common/src/agents.ts (the console uses it
// too); engines import it from here or from @opsdeck/common, never from one another.
export { NO_AGENT } from '@opsdeck/common';
