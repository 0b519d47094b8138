// /catalog/insights (spec/2 §2.4): every item's insights; ?component=&type=&severity= come from
// topology cards.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Breadcrumb } from '../../ui/breadcrumb';
import { usePageHeader } from '../../ui/page-header';
import { CatalogTabs } from './components/CatalogTabs';
import { InsightsView } from './components/InsightsView';
import { catalogKeys } from './keys';

export default function InsightsPage() {
  const client = useQueryClient();
  const onRefresh = useCallback(
    () => void client.invalidateQueries({ queryKey: [...catalogKeys.all, 'insights'] }),
    [client],
  );
  usePageHeader({ onRefresh });
  return (
    <div className="space-y-3">
      <CatalogTabs />
      <Breadcrumb items={[{ label: 'Catalog', to: '/catalog' }, { label: 'Insights' }]} />
      <InsightsView />
    </div>
  );
}
