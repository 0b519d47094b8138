// Providers (react-query, theme, tooltips, toasts) and the router. The router and the query
// client are created once per page load, outside React, so the 401 handler and the app share them.
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { errorMessage, setUnauthorizedHandler } from '../api/client';
import { createQueryClient } from '../api/queryClient';
import { aboutQuery } from '../api/session';
import { ThemeProvider, useTheme } from '../ui/theme';
import { toast, Toaster } from '../ui/toast';
import { TooltipProvider } from '../ui/tooltip';
import { createAppRouter } from './router';

// A failed load is toasted with the server's message or the network-error text.
const queryClient = createQueryClient((error) => toast.error(errorMessage(error)));
// The route guards wait for /api/about (the deployment mode) after the shell's whoami; asked now,
// it arrives with the page's chunks instead of after them (one round trip less before a page).
void queryClient.prefetchQuery(aboutQuery);
const router = createAppRouter();
// A lost session goes to sign-in through the router, keeping the loaded app.
setUnauthorizedHandler((to) => void router.navigate(to, { replace: true }));

function ThemedToaster() {
  const { resolved } = useTheme();
  return <Toaster theme={resolved} />;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <TooltipProvider delayDuration={300}>
          <RouterProvider router={router} />
          <ThemedToaster />
        </TooltipProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
