// The shapes of the logs area: a component or catalog item with logs (the components_with_logs and
// configs_with_logs views) and the lines of POST /api/logs (spec/2 §3: timestamp, message, labels; shared with the server).
import type { LogSelector } from '@opsdeck/common/logs';

export type { LogLine, LogsRequest, LogsResponse, LogSelector } from '@opsdeck/common/logs';

export interface ComponentWithLogs {
  id: string;
  name: string;
  type: string | null;
  icon: string | null;
  path: string | null;
  external_id: string | null;
  /** Its log selectors: `name` is what the selector dropdown shows. */
  logs: LogSelector[] | null;
}

export interface ConfigWithLogs {
  id: string;
  name: string;
  type: string | null;
  config_class: string | null;
  external_id: string | null;
  logs: LogSelector[] | null;
}
