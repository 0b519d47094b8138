// The agent id of rows that belong to this server itself (not pushed by an agent): the default of
// every `agent_id` column in the migrations. Shared by the engines, which must not import it from
// one another.
export const NO_AGENT = '00000000-0000-0000-0000-000000000000';
