// /settings/integrations/{type}/{id} (spec/3 §2 "Integrations"): an integration opens in the edit
// page of its settings kind, with its Spec and Job History tabs (topologies → 'topologies',
// scrapers → 'config_scrapers', log backends → 'logging_backends'); after an update or delete of a
// topology or scraper that page returns to the integrations.
// Any other type shows 'Unknown type'.
import { ArrowLeft, CircleHelp } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Card } from '../../../ui/card';
import { EmptyState } from '../../../ui/empty-state';
import { usePageHeader } from '../../../ui/page-header';
import SettingsResourceEditPage from '../resources/SettingsResourceEditPage';
import { integrationKindTable } from './integrationsApi';

export const UNKNOWN_TYPE = 'Unknown type';
const INTEGRATIONS_LIST = { to: '/settings/integrations', title: 'Integrations' };

export default function IntegrationDetailPage() {
  const { type } = useParams();
  const table = integrationKindTable(type);
  if (table) return <SettingsResourceEditPage key={table} table={table} list={INTEGRATIONS_LIST} />;
  return <UnknownType />;
}

function UnknownType() {
  usePageHeader({ title: 'Integrations' });
  return (
    <div className="space-y-4">
      <Link
        to="/settings/integrations"
        className="inline-flex items-center gap-1.5 text-[13px] font-medium text-muted hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden /> Integrations
      </Link>
      <Card>
        <EmptyState icon={CircleHelp} title={UNKNOWN_TYPE} />
      </Card>
    </div>
  );
}
