// What the check drawer shows of a check, merged from the dashboard's summary item and the check row.
import { type CheckRow, type CheckSummary } from '../types';

/** What the drawer shows of a check: the summary item when the dashboard has it, else the row. */
export interface DrawerCheck {
  id: string;
  canaryId: string;
  canaryName: string | undefined;
  name: string;
  namespace: string | null;
  type: string;
  icon: string | null;
  endpoint: string | null;
  description: string | null;
  agentId: string | null;
  severity: string | null;
  status: CheckSummary['status'];
  lastRuntime: string | null;
  lastTransition: string | null;
  nextRuntime: string | null;
  spec: Record<string, unknown> | null;
}

export function drawerCheck(
  row: CheckRow | null | undefined,
  summary: CheckSummary | undefined,
): DrawerCheck | undefined {
  if (!row && !summary) return undefined;
  const spec = row?.spec ?? null;
  const specSeverity = typeof spec?.severity === 'string' ? spec.severity : null;
  return {
    id: (row?.id ?? summary?.id)!,
    canaryId: (row?.canary_id ?? summary?.canary_id)!,
    canaryName: row?.canaries?.name ?? summary?.canary_name,
    name: (row?.name ?? summary?.name)!,
    namespace: row?.namespace ?? summary?.namespace ?? null,
    type: (row?.type ?? summary?.type)!,
    icon: row?.icon ?? summary?.icon ?? null,
    endpoint: row?.endpoint ?? summary?.endpoint ?? null,
    description: row?.description ?? summary?.description ?? null,
    agentId: row?.agent_id ?? summary?.agent_id ?? null,
    severity: row?.severity ?? summary?.severity ?? specSeverity,
    status: row ? row.status : (summary?.status ?? null),
    lastRuntime: row ? row.last_runtime : (summary?.last_runtime ?? null),
    lastTransition: row ? row.last_transition_time : (summary?.last_transition_time ?? null),
    nextRuntime: row ? row.next_runtime : (summary?.next_runtime ?? null),
    spec,
  };
}
