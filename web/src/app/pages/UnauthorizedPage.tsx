// Shown in place of a guarded page the user may not read (spec/1 §2).
import { ShieldX } from 'lucide-react';
import { StatusPage } from './StatusPage';

export const UNAUTHORIZED_TITLE = 'Unauthorized';
export const UNAUTHORIZED_TEXT = 'You do not have permission to access this page';

export default function UnauthorizedPage() {
  return (
    <StatusPage icon={ShieldX} tone="danger" title={UNAUTHORIZED_TITLE} testId="unauthorized">
      {UNAUTHORIZED_TEXT}
    </StatusPage>
  );
}
