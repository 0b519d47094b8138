// Unhandled render errors and failed page loads (spec/1 §2, §8): 'Sorry.. there was an error'.
import { Bug } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '../../ui/button';
import NotFoundPage from './NotFoundPage';
import { StatusPage } from './StatusPage';

export const RENDER_ERROR_TEXT = 'Sorry.. there was an error';

export function ErrorFallback({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : undefined;
  return (
    <StatusPage
      icon={Bug}
      tone="danger"
      title={RENDER_ERROR_TEXT}
      testId="error-fallback"
      action={
        <>
          <Button variant="outline" onClick={() => window.location.reload()}>
            Reload
          </Button>
          <Button asChild variant="ghost">
            <a href="/">Go back</a>
          </Button>
        </>
      }
    >
      {message && <p className="font-mono text-[12.5px] text-subtle">{message}</p>}
    </StatusPage>
  );
}

/** The router's errorElement. */
export default function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return <ErrorFallback error={error} />;
}
