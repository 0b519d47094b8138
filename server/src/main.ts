// Entry point of `npm start`: starts the server with the configuration from the environment, and
// stops it gracefully on SIGTERM/SIGINT: new requests refused first (/readyz 503, listener closed),
// the engines given SHUTDOWN_TIMEOUT_MS to finish (what is left is handed to the other replicas),
// the database closed, exit 0. A second signal exits at once.
import { startOpsdeck } from './app.js';
import { errorText, logger } from './log.js';

const log = logger('main');
/** Past the shutdown timeout, this much more for the database to close before the process exits anyway. */
const EXIT_GRACE_MS = 5_000;

const started = Date.now();
try {
  const opsdeck = await startOpsdeck();
  const { config, db } = opsdeck.ctx;
  const where = db.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  if (opsdeck.admin.created) {
    log.info(`Created the first administrator: ${opsdeck.admin.email}`);
    if (opsdeck.admin.generatedPassword) {
      // Shown once: it is stored only as a hash.
      log.info(
        `  password: ${opsdeck.admin.generatedPassword}   (shown only now; set ADMIN_EMAIL/ADMIN_PASSWORD to choose your own)`,
      );
    }
  }
  log.info(
    `Opsdeck ${opsdeck.ctx.version} listening on ${config.publicUrl} (database: ${where}; ready in ${((Date.now() - started) / 1000).toFixed(2)} s)`,
  );
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn(`${signal} received again: exiting now`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    stopping = true;
    const timeoutMs = config.shutdownTimeoutMs;
    log.info(`${signal} received, shutting down (at most ${(timeoutMs / 1000).toFixed(1)} s)`);
    // Whatever happens below, the process ends: a database that does not close is not waited for.
    setTimeout(() => {
      log.error('shutdown did not finish in time: exiting');
      process.exit(1);
    }, timeoutMs + EXIT_GRACE_MS).unref();
    const t0 = Date.now();
    try {
      await opsdeck.close({ timeoutMs });
      log.info(`stopped in ${((Date.now() - t0) / 1000).toFixed(2)} s`);
      process.exit(0);
    } catch (e) {
      log.error(`shutdown failed: ${errorText(e)}`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (e) {
  log.fatal(`Opsdeck failed to start: ${errorText(e)}`);
  process.exit(1);
}
