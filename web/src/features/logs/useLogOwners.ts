// Whose logs /logs can show: the components with logs (components_with_logs) and, with the catalog
// feature on, the catalog items whose logs are known (configs_with_logs), and the one the link
// names (topologyId or configId), also when it is beyond the dropdown's list (read by id).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSession } from '../../api/session';
import { logsApi, logsKeys } from './logsApi';
import type { LogsParams } from './logsParams';
import type { ComponentWithLogs, ConfigWithLogs, LogSelector } from './types';

export type LogOwnerKind = 'component' | 'config';

/** A component or catalog item as the dropdown shows it. */
export interface LogOwner {
  kind: LogOwnerKind;
  id: string;
  name: string;
  type: string | null;
  logs: LogSelector[];
}

/** The dropdown's value of an owner: kind and id. */
export const ownerKey = (kind: LogOwnerKind, id: string) => `${kind}:${id}`;

export function parseOwnerKey(key: string): { kind: LogOwnerKind; id: string } | undefined {
  const m = /^(component|config):(.+)$/.exec(key);
  return m ? { kind: m[1] as LogOwnerKind, id: m[2]! } : undefined;
}

const fromComponent = (c: ComponentWithLogs): LogOwner => ({
  kind: 'component',
  id: c.id,
  name: c.name,
  type: c.type,
  logs: c.logs ?? [],
});
const fromConfig = (c: ConfigWithLogs): LogOwner => ({
  kind: 'config',
  id: c.id,
  name: c.name,
  type: c.type,
  logs: c.logs ?? [],
});

export interface LogOwners {
  components: LogOwner[];
  configs: LogOwner[];
  /** The one the link names, once known. */
  owner: LogOwner | undefined;
  /** The components could not be read ('Unable to load components!'). */
  failed: boolean;
  loading: boolean;
  fetching: boolean;
  /** The link names one that does not exist (or has no logs). */
  notFound: boolean;
  refetch(): void;
}

/** Adds `extra` at the top of a list that lacks it. */
const withOwner = (list: LogOwner[], extra: LogOwner | undefined) =>
  extra && !list.some((o) => o.id === extra.id) ? [extra, ...list] : list;

export function useLogOwners(url: Pick<LogsParams, 'topologyId' | 'configId'>): LogOwners {
  const session = useSession();
  const catalogOn = !session.disabledFeatures.includes('config');
  const components = useQuery({
    queryKey: logsKeys.components(),
    queryFn: ({ signal }) => logsApi.components(signal),
    meta: { silent: true },
  });
  // Catalog items are an addition: a failure to read them leaves the components alone.
  const configs = useQuery({
    queryKey: logsKeys.configs(),
    queryFn: ({ signal }) => logsApi.configs(signal),
    enabled: catalogOn,
    meta: { silent: true },
  });

  const listedComponent = components.data?.find((c) => c.id === url.topologyId);
  const single = useQuery({
    queryKey: logsKeys.component(url.topologyId ?? ''),
    queryFn: ({ signal }) => logsApi.component(url.topologyId!, signal),
    enabled: !!url.topologyId && components.isSuccess && !listedComponent,
    meta: { silent: true },
  });
  const listedConfig = configs.data?.find((c) => c.id === url.configId);
  const singleConfig = useQuery({
    queryKey: logsKeys.config(url.configId ?? ''),
    queryFn: ({ signal }) => logsApi.config(url.configId!, signal),
    enabled: !!url.configId && catalogOn && !configs.isPending && !listedConfig,
    meta: { silent: true },
  });

  const componentRow = listedComponent ?? single.data ?? undefined;
  const configRow = listedConfig ?? singleConfig.data ?? undefined;
  const owner = url.topologyId
    ? componentRow && fromComponent(componentRow)
    : url.configId
      ? configRow && fromConfig(configRow)
      : undefined;

  const componentList = useMemo(
    () => withOwner((components.data ?? []).map(fromComponent), single.data ? fromComponent(single.data) : undefined),
    [components.data, single.data],
  );
  const configList = useMemo(
    () =>
      withOwner((configs.data ?? []).map(fromConfig), singleConfig.data ? fromConfig(singleConfig.data) : undefined),
    [configs.data, singleConfig.data],
  );

  const notFound = url.topologyId
    ? single.isSuccess && !single.data
    : !!url.configId && (!catalogOn || singleConfig.isError || (singleConfig.isSuccess && !singleConfig.data));

  return {
    components: componentList,
    configs: configList,
    owner,
    failed: components.isError,
    loading: components.isPending,
    fetching: components.isFetching || configs.isFetching,
    notFound,
    refetch: () => {
      void components.refetch();
      if (catalogOn) void configs.refetch();
    },
  };
}
