// Unknown routes.
import { Compass } from 'lucide-react';
import { StatusPage } from './StatusPage';

export default function NotFoundPage() {
  return (
    <StatusPage icon={Compass} title="Page not found" testId="not-found">
      There is no page at this address. It may have moved, or the link may be mistyped.
    </StatusPage>
  );
}
