// Where the docs menu and help links point: the project's own docs. VITE_DOCS_URL overrides the
// base at build time (for example a docs site that publishes the same files).
const base = (import.meta.env.VITE_DOCS_URL as string | undefined) ?? 'https://github.com/opsdeck/opsdeck/blob/main';

export const DOCS_LINKS = {
  home: `${base}/README.md`,
  architecture: `${base}/docs/architecture.md`,
  api: `${base}/docs/api.md`,
  identity: `${base}/docs/auth-api.md`,
  // No kubeconfig page yet: the HTTP API document covers access tokens and /api/kubeconfig.
  kubeconfig: `${base}/docs/api.md`,
};
