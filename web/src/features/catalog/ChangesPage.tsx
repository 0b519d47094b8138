// /catalog/changes (spec/2 §2.3): every item's changes, with the breadcrumb Catalog > Changes and
// the config type when one type is filtered.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { decodeTriStateList } from '@opsdeck/common/triState';
import { Breadcrumb } from '../../ui/breadcrumb';
import { usePageHeader } from '../../ui/page-header';
import { CatalogTabs } from './components/CatalogTabs';
import { ChangesView } from './components/ChangesView';
import { catalogKeys } from './keys';

export default function ChangesPage() {
  const client = useQueryClient();
  const onRefresh = useCallback(
    () => void client.invalidateQueries({ queryKey: [...catalogKeys.all, 'changes'] }),
    [client],
  );
  usePageHeader({ onRefresh });
  const [params] = useSearchParams();
  const types = Object.entries(decodeTriStateList(params.get('configTypes'))).filter(([, s]) => s === 1);
  const single = types.length === 1 ? types[0][0] : undefined;
  return (
    <div className="space-y-3">
      <CatalogTabs />
      <Breadcrumb
        items={[
          { label: 'Catalog', to: '/catalog' },
          { label: 'Changes', to: single ? '/catalog/changes' : undefined },
          ...(single ? [{ label: single }] : []),
        ]}
      />
      <ChangesView />
    </div>
  );
}
