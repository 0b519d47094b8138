// The page header's per-page part: pages declare extra controls and a refresh action; the shell's
// header (title from the route table, bell, docs and user menus) renders them. Two contexts, so a
// page that declares its header does not re-render when the header changes.
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

export interface PageHeaderConfig {
  /** Replaces the route's title (e.g. a resource name). */
  title?: ReactNode;
  /** Controls shown in the header: time range, refresh rate, filters. */
  extra?: ReactNode;
  /** Shows the refresh button; it spins while `loading`. */
  onRefresh?: () => void;
  loading?: boolean;
}

type Setter = (config: PageHeaderConfig) => void;

const ConfigContext = createContext<PageHeaderConfig>({});
const SetterContext = createContext<Setter | null>(null);

export function PageHeaderProvider({ children }: { children: ReactNode }) {
  const [config, set] = useState<PageHeaderConfig>({});
  return (
    <SetterContext.Provider value={set}>
      <ConfigContext.Provider value={config}>{children}</ConfigContext.Provider>
    </SetterContext.Provider>
  );
}

export function usePageHeaderConfig(): PageHeaderConfig {
  return useContext(ConfigContext);
}

/** Declares this page's header controls for as long as it is mounted. */
export function usePageHeader(config: PageHeaderConfig): void {
  const set = useContext(SetterContext);
  const { title, extra, onRefresh, loading } = config;
  useEffect(() => {
    set?.({ title, extra, onRefresh, loading });
  }, [set, title, extra, onRefresh, loading]);
  useEffect(() => () => set?.({}), [set]);
}
