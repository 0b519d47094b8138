// Connection plumbing shared by every engine (health, catalog, topology, playbooks): EnvValues and
// stored connections resolved into a target, errors worded for a person, child processes and bash
// scripts, SQL queries, durations.
export {
  envValueSchema,
  envVarSchema,
  keyRefSchema,
  resolveEnvValue,
  type EnvValue,
  type EnvVarSpec,
} from './envValue.js';
export {
  connectionEndpoint,
  connectionFields,
  connectionResolver,
  interpolateCredentials,
  resolveField,
  resolveTarget,
  sanitizeUrl,
  type ConnectionContext,
  type ConnectionSpec,
  type ResolvedConnection,
  type Target,
} from './resolve.js';
export { abortable, connectFailure, describeError, liftSocketError, SpecError } from './errors.js';
export {
  baseEnv,
  findOnPath,
  INHERITED_ENV,
  MAX_OUTPUT_BYTES,
  runProcess,
  type ProcessOptions,
  type ProcessResult,
} from './process.js';
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
export {
  parseKeywordDsn,
  parseMysqlUrl,
  runSqlQuery,
  sqlEndpoint,
  SqlError,
  type MysqlTarget,
  type SqlDriver,
  type SqlQueryOptions,
  type SqlRow,
  type SqlTarget,
} from './sql.js';
export { BASH_MISSING, runScript, scriptData, scriptFailure, scriptSummary, type ScriptRun } from './script.js';
