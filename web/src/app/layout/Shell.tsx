// The signed-in frame: loads the session (whoami) once, then renders the sidebar, the header and
// the page. Guards below it read the session synchronously, so nothing waits on an effect.
import { Outlet, useNavigation } from 'react-router';
import { ApiError } from '../../api/client';
import { SessionContext, useWhoamiQuery } from '../../api/session';
import { cn } from '../../ui/cn';
import { PageHeaderProvider } from '../../ui/page-header';
import { Skeleton } from '../../ui/skeleton';
import { ErrorFallback } from '../pages/ErrorFallbackPage';
import { ProvisioningPage } from '../pages/ProvisioningPage';
import { Header } from './Header';
import { Sidebar, useSidebarCollapsed } from './Sidebar';

function ShellSkeleton() {
  return (
    <div className="flex h-full" aria-busy="true" aria-label="Loading">
      <div className="h-full w-60 shrink-0 bg-sidebar max-lg:w-16" />
      <div className="flex-1">
        <div className="flex h-14 items-center border-b border-border bg-surface px-6">
          <Skeleton className="h-5 w-40" />
        </div>
        <div className="space-y-3 p-6">
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-64 w-full" />
        </div>
      </div>
    </div>
  );
}

function NavigationProgress() {
  const navigation = useNavigation();
  return (
    <div
      className={cn(
        'pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 origin-left bg-primary transition-transform duration-500',
        navigation.state === 'loading' ? 'scale-x-75' : 'scale-x-0',
      )}
      aria-hidden
    />
  );
}

export default function Shell() {
  const whoami = useWhoamiQuery();
  const sidebar = useSidebarCollapsed();

  if (whoami.isPending) return <ShellSkeleton />;
  if (whoami.isError) {
    const status = whoami.error instanceof ApiError ? whoami.error.status : 0;
    if (status === 401) return <ShellSkeleton />; // the client is sending the browser to /login
    if (status === 404 || status >= 500) return <ProvisioningPage onRetry={() => whoami.refetch()} />;
    return <ErrorFallback error={whoami.error} />;
  }

  return (
    <SessionContext.Provider value={whoami.data}>
      <PageHeaderProvider>
        <NavigationProgress />
        <div className="flex h-full">
          <Sidebar collapsed={sidebar.collapsed} onToggle={sidebar.toggle} />
          <div className="flex min-w-0 flex-1 flex-col">
            <Header onMenu={sidebar.toggle} showMenuButton={false} />
            <main className="min-h-0 flex-1 overflow-y-auto" id="main">
              <div className="mx-auto w-full max-w-[1600px] p-4 lg:p-6">
                <Outlet />
              </div>
            </main>
          </div>
        </div>
      </PageHeaderProvider>
    </SessionContext.Provider>
  );
}
