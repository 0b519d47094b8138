// Log fixtures shared by the logs tests: a file of timestamped lines, a component with log selectors.
import fs from 'node:fs';
import type { Queryable } from '../../src/db/database.js';

/** Writes file with one `<ISO time> <text>` line per [at (ms), text] entry. */
export function writeLogLines(file: string, entries: [at: number, text: string][]): void {
  fs.writeFileSync(file, entries.map(([at, text]) => `${new Date(at).toISOString()} ${text}\n`).join(''));
}

/** Inserts a Service component with these log selectors (components.log_selectors); its id. */
export async function insertComponentWithLogSelectors(
  db: Queryable,
  name: string,
  selectors: { name: string; backend: string; selector: Record<string, string> }[],
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO components (name, type, log_selectors) VALUES ($1, 'Service', $2) RETURNING id`,
    [name, JSON.stringify(selectors)],
  );
  return rows[0]!.id;
}
