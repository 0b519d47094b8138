// Test data for the e2e specs, written straight into the database of the server under test.
import type { Database } from '../../server/src/db/database.js';

const STATUSES = ['SUCCESS', 'SUCCESS', 'FAILED', 'WARNING', 'RUNNING'] as const;
const NAMES = [
  'canary-checker:http-api',
  'scraper:kubernetes-prod',
  'topology:payments',
  'canary-checker:dns',
  'scraper:aws-eu',
];
const TYPES = ['canary', 'config_scraper', 'topology', 'canary', 'config_scraper'];

/**
 * `count` job runs spread over the last `hours` hours: statuses cycle SUCCESS, SUCCESS, FAILED,
 * WARNING, RUNNING (so 3 in 5 are not SUCCESS), durations from 0.2 s upwards.
 */
export async function seedJobHistory(
  db: Database,
  count: number,
  options: { hours?: number; resourceId?: string } = {},
): Promise<void> {
  const hours = options.hours ?? 24;
  const values: string[] = [];
  const params: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(Date.now() - Math.round((i / count) * hours * 3_600_000) - 60_000).toISOString();
    const k = i % 5;
    const base = params.length;
    params.push(
      NAMES[k],
      TYPES[k],
      options.resourceId ?? null,
      STATUSES[k],
      200 + i * 137,
      STATUSES[k] === 'FAILED' ? 0 : 3 + (i % 7),
      STATUSES[k] === 'FAILED' ? 1 + (i % 3) : 0,
      at,
      STATUSES[k] === 'FAILED' ? JSON.stringify({ errors: [`connection refused (attempt ${i})`] }) : null,
    );
    values.push(
      `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5}, $${base + 6}, $${base + 7}, $${base + 8}::timestamptz, $${base + 8}::timestamptz, $${base + 9}::jsonb)`,
    );
  }
  await db.query(
    `INSERT INTO job_history (name, resource_type, resource_id, status, duration_millis, success_count, error_count, time_start, created_at, details)
     VALUES ${values.join(', ')}`,
    params,
  );
}
