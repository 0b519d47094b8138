// /error (spec/1 §2, flow-error page): an identity flow failed (for example an OIDC sign-in the
// provider refused). Shows 'An error occurred' with the raw details from the redirect.
import { TriangleAlert } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { StatusPage } from './StatusPage';

export default function FlowErrorPage() {
  const [params] = useSearchParams();
  const details = Object.fromEntries(params);
  return (
    <StatusPage icon={TriangleAlert} tone="danger" title="An error occurred" testId="flow-error">
      {Object.keys(details).length > 0 && (
        <pre className="mt-4 max-h-64 overflow-auto rounded-md border border-border bg-surface-muted p-3 text-left font-mono text-[12px] text-foreground">
          {JSON.stringify(details, null, 2)}
        </pre>
      )}
    </StatusPage>
  );
}
