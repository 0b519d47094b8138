// Connection plumbing shared by every engine (health, catalog, topology, playbooks): EnvValues and
// stored connections resolved into a target, errors worded for a person, child processes and bash
// scripts, SQL queries, HTTP requests, durations.
export { envValueSchema, envVarSchema, resolveEnvValue, type EnvValue } from './envValue.js';
export {
  connectionEndpoint,
  connectionFields,
  connectionResolver,
  firstConnectionOfType,
  interpolateCredentials,
  resolveField,
  resolveTarget,
  sanitizeUrl,
  type ConnectionContext,
  type ResolvedConnection,
  type Target,
  type TimedConnectionContext,
} from './resolve.js';
export {
  abortable,
  connectFailure,
  describeError,
  describeNetworkError,
  errorText,
  liftSocketError,
  SpecError,
} from './errors.js';
export {
  HttpRedirectError,
  MAX_CONTENT_BYTES,
  prepareHttpRequest,
  responseJson,
  sendHttpRequest,
  urlWithoutCredentials,
  type HttpResponse,
  type PreparedHttpRequest,
} from './httpRequest.js';
export { baseEnv, findOnPath, runProcess } from './process.js';
export {
  durationMs,
  durationSchema,
  formatDuration,
  formatSize,
  isDuration,
  isSize,
  parseDuration,
  parseSize,
} from './duration.js';
export { CappedBuffer, head, tail } from './text.js';
export { parseKeywordDsn, parseMysqlUrl, runSqlQuery, sqlEndpoint, SqlError, type SqlRow } from './sql.js';
export { BASH_MISSING, runScript, scriptData, scriptFailure, scriptSummary, type ScriptRun } from './script.js';
