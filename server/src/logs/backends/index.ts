// The log backends by type: adding one is a file in this folder and a line here.
import type { LogBackendType } from '@opsdeck/common';
import { fileBackend } from './file.js';
import { kubernetesBackend } from './kubernetes.js';
import { lokiBackend } from './loki.js';
import { opensearchBackend } from './opensearch.js';
import type { LogBackend } from './types.js';

// Each backend checks its own entries with its own schema; the registry holds them by type.
export const logBackends: Record<LogBackendType, LogBackend<never>> = {
  file: fileBackend as LogBackend<never>,
  loki: lokiBackend as LogBackend<never>,
  opensearch: opensearchBackend as LogBackend<never>,
  kubernetes: kubernetesBackend as LogBackend<never>,
};

export {
  LogBackendError,
  LogRequestError,
  type LogBackend,
  type LogPage,
  type LogQuery,
  type SearchContext,
} from './types.js';
