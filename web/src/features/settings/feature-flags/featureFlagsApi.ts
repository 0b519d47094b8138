// Feature flags are rows of `properties` (/api/db/properties); '{feature}.disable' = 'true' turns a
// feature off (common/src/features.ts).
import { db } from '../../../api/postgrest';

export interface FeatureFlag {
  name: string;
  value: string;
  description?: string | null;
  /** 'local' for flags from the server's own configuration (not editable); absent for database rows. */
  source?: string | null;
  created_by?: string | null;
  creator?: { id: string; name: string } | null;
  created_at?: string;
  updated_at?: string;
}

export const isLocalFlag = (flag: FeatureFlag) => flag.source === 'local';

export const featureFlagsApi = {
  list: (
    page: { pageIndex: number; pageSize: number; sortBy?: string; sortOrder: 'asc' | 'desc' },
    signal?: AbortSignal,
  ) =>
    db<FeatureFlag>('properties')
      .select('name,value,created_by,created_at,updated_at,creator:people!created_by(id,name)')
      .order(page.sortBy ?? 'name', { ascending: page.sortOrder === 'asc' })
      .page(page.pageIndex, page.pageSize)
      .list(signal),
  create: (flag: { name: string; value: string }, createdBy: string) =>
    db<FeatureFlag>('properties').insert({ name: flag.name, value: flag.value, created_by: createdBy }),
  update: (name: string, value: string) =>
    db<FeatureFlag>('properties').eq('name', name).update({ value, updated_at: new Date().toISOString() }),
  remove: (name: string) => db('properties').eq('name', name).delete(),
};
