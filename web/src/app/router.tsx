// Builds the browser router from the route table: lazily loaded pages, each guarded by its
// access requirement, inside the signed-in shell or the public layout; '/' → /topology; anything
// else → not found; render errors → 'Sorry.. there was an error'.
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { checkAccess } from '@opsdeck/common/access';
import { accessSubject, prefetchWhoami, useAbout, useMode, useSession } from '../api/session';
import RouteErrorPage from './pages/ErrorFallbackPage';
import FeatureDisabledPage from './pages/FeatureDisabledPage';
import NotFoundPage from './pages/NotFoundPage';
import UnauthorizedPage from './pages/UnauthorizedPage';
import PublicLayout from './layout/PublicLayout';
import Shell from './layout/Shell';
import { landingPath, routeAbsent, ROUTES, type AppRoute } from './routes';

/** A shell page behind its route's access check (the session is already loaded by the shell). */
function guarded(route: AppRoute, Page: ComponentType<Record<string, unknown>>): ComponentType {
  function GuardedPage() {
    const session = useSession();
    const about = useAbout();
    // OPSDECK_MODE=health: the other areas' pages do not exist (known once /api/about answered).
    if (route.access?.feature && about.isPending) return null;
    if (about.data?.mode && routeAbsent(route, about.data.mode)) return <NotFoundPage />;
    const decision = route.access ? checkAccess(route.access, accessSubject(session)) : 'allowed';
    if (decision === 'unauthorized') return <UnauthorizedPage />;
    if (decision === 'feature-disabled') return <FeatureDisabledPage feature={route.access!.feature!} />;
    return <Page {...route.props} />;
  }
  GuardedPage.displayName = `Guarded(${route.path})`;
  return GuardedPage;
}

function withProps(route: AppRoute, Page: ComponentType<Record<string, unknown>>): ComponentType {
  return function PublicPage() {
    return <Page {...route.props} />;
  };
}

function toRouteObject(route: AppRoute): RouteObject {
  return {
    path: route.path,
    handle: { title: route.title },
    lazy: async () => {
      // The shell needs the session as soon as this code is in: asked for now, it loads beside it.
      if (route.layout === 'shell') prefetchWhoami();
      const page = (await route.load()).default as ComponentType<Record<string, unknown>>;
      return { Component: route.layout === 'shell' ? guarded(route, page) : withProps(route, page) };
    },
  };
}

/** '/': the dashboard, or /health in health-only mode. */
function Landing() {
  const about = useAbout();
  const mode = useMode();
  if (about.isPending) return null;
  return <Navigate to={landingPath(mode)} replace />;
}

/** Shown for the instant the first lazy page loads. */
function Blank() {
  return null;
}

export function buildRoutes(routes: readonly AppRoute[] = ROUTES): RouteObject[] {
  return [
    { path: '/', element: <Landing /> },
    {
      Component: PublicLayout,
      HydrateFallback: Blank,
      errorElement: <RouteErrorPage />,
      children: routes.filter((r) => r.layout === 'public').map(toRouteObject),
    },
    {
      Component: Shell,
      HydrateFallback: Blank,
      errorElement: <RouteErrorPage />,
      children: [
        {
          // Errors of a page render inside the shell, keeping header and sidebar.
          errorElement: <RouteErrorPage />,
          children: [
            ...routes.filter((r) => r.layout === 'shell').map(toRouteObject),
            { path: '*', Component: NotFoundPage, handle: { title: 'Not found' } },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
