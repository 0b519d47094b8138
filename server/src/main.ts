// Entry point of `npm start`: starts the server with the configuration from the environment.
import { startOpsdeck } from './app.js';

const started = Date.now();
try {
  const opsdeck = await startOpsdeck();
  const { config, db } = opsdeck.ctx;
  const where = db.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  if (opsdeck.admin.created) {
    console.log(`Created the first administrator: ${opsdeck.admin.email}`);
    if (opsdeck.admin.generatedPassword) {
      // Shown once: it is stored only as a hash.
      console.log(
        `  password: ${opsdeck.admin.generatedPassword}   (shown only now; set ADMIN_EMAIL/ADMIN_PASSWORD to choose your own)`,
      );
    }
  }
  console.log(
    `Opsdeck ${opsdeck.ctx.version} listening on ${config.publicUrl} (database: ${where}; ready in ${((Date.now() - started) / 1000).toFixed(2)} s)`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, shutting down`);
    await opsdeck.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (e) {
  console.error(`Opsdeck failed to start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
