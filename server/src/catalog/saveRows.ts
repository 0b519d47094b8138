// Shared by the catalog save steps (save.ts and its helpers): the stored item row, item keys, batched writes.

/** Rows per statement in batched writes. */
const BATCH = 2_000;

export interface ExistingRow {
  id: string;
  type: string;
  external_id: string;
  name: string | null;
  config_class: string;
  description: string | null;
  status: string | null;
  health: string | null;
  ready: boolean | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  config: unknown;
  format: string;
  source: string | null;
  parent_id: string | null;
  path: string;
  deleted_at: string | Date | null;
  last_scraped_time: string | Date | null;
}

export const keyOf = (type: string, externalId: string) => `${type}\u0000${externalId}`;

export async function batched<T>(rows: T[], fn: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += BATCH) await fn(rows.slice(i, i + BATCH));
}
