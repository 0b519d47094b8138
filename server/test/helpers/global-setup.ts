// Builds the migrated PGlite snapshot once before the integration workers start, so parallel
// test files load it from .test-cache/ instead of each running initdb and the migrations.
import { migratedPgliteSnapshot } from './databases.js';

export default async function setup(): Promise<void> {
  await migratedPgliteSnapshot();
}
