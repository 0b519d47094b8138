// The logs module's public surface for other modules (playbooks' `logs` action): one page of log
// lines through the log backends (search.ts, the function behind POST /api/logs), the component /
// catalog item lookup for their log selectors, and the request and answer types.
export type { LogBackendType, LogLine, LogsRequest, LogsResponse } from '@opsdeck/common';
export { findLogOwner, logBackendExists, LogsError, LOGS_TIMEOUT_MS, searchLogs, type LogOwner } from './search.js';
