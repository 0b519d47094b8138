// Placeholder landing page: proves the build, the static serving and the API round trip.
// The console shell (routes, layout, providers) replaces it.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface About {
  version: string;
  database: string;
}

type AboutState = { status: 'loading' } | { status: 'ok'; about: About } | { status: 'error'; message: string };

function Landing() {
  const [state, setState] = useState<AboutState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/about', { signal: controller.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        setState({ status: 'ok', about: (await res.json()) as About });
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', message: e instanceof Error ? e.message : String(e) });
      });
    return () => controller.abort();
  }, []);

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', margin: '4rem auto', maxWidth: '40rem', padding: '0 1rem' }}>
      <h1>Opsdeck</h1>
      <p>Infrastructure operations console.</p>
      <p data-testid="backend-version">
        {state.status === 'loading' && 'Connecting to the server…'}
        {state.status === 'ok' && `Server ${state.about.version} (database: ${state.about.database})`}
        {state.status === 'error' && `Server unreachable: ${state.message}`}
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Landing />
  </StrictMode>,
);
