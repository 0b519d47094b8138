// /view/topology/{id}?size=: one component's card, read-only and without the console's chrome, for
// embedding (spec/2 §2.6). The route is a shell route, so it is signed in and guarded like
// /topology; the page covers the shell's header and sidebar with a plain full-window frame.
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { useSession } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Skeleton } from '../../ui/skeleton';
import { viewCardWidth } from './cardSize';
import { TopologyCard, type CardLinks } from './components/TopologyCard';
import { topologyKeys } from './keys';
import { topologyApi } from './topologyApi';
import { NO_MATCH } from './messages';

export default function ViewTopologyPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [params] = useSearchParams();
  const width = viewCardWidth(params.get('size'));
  const session = useSession();
  const query = { id, depth: '2' };
  const card = useQuery({
    queryKey: topologyKeys.cards(query),
    queryFn: ({ signal }) => topologyApi.cards(query, signal),
    meta: { silent: true },
  });
  const disabled = session.disabledFeatures;
  const links: CardLinks = {
    zoomTo: (target) => `/topology/${encodeURIComponent(target)}`,
    logsEnabled: !disabled.includes('logs'),
    incidentsEnabled: !disabled.includes('incidents'),
  };
  const component = card.data?.components.find((c) => c.id === id);

  return (
    <div className="fixed inset-0 z-40 overflow-auto bg-background p-4" data-testid="topology-view">
      {card.isError ? (
        <Alert tone="error" className="max-w-md">
          {errorMessage(card.error)}
        </Alert>
      ) : card.isPending ? (
        <Skeleton className="h-44 w-64" />
      ) : component ? (
        <TopologyCard component={component} width={width} links={links} readOnly />
      ) : (
        <p className="text-sm text-muted">{NO_MATCH}</p>
      )}
    </div>
  );
}
