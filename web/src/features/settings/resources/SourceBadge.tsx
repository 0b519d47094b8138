// Where a settings resource comes from: UI (editable here), an agent, a file, Kubernetes.
import { Badge } from '../../../ui/badge';

export function SourceBadge({ source }: { source: string | null | undefined }) {
  if (!source || source === 'UI') return <Badge>UI</Badge>;
  return <Badge tone="primary">{source}</Badge>;
}
