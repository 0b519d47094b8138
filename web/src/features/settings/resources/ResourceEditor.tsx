// The settings resource editor below the page's loading: back link, breadcrumb, source badge and
// the Spec / Members / Job History tabs, the chosen one kept in ?tab=.
import { type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Breadcrumb } from '../../../ui/breadcrumb';
import { useListState } from '../../../ui/list-state';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui/tabs';
import { JobHistoryTable } from '../jobs/JobHistoryTable';
import { TeamMembersTab } from '../teams/TeamMembersTab';
import { type SettingsResourceKind } from './kinds';
import { type SettingsResourceRow } from './resourcesApi';
import { SourceBadge } from './SourceBadge';
import { SpecEditor } from './SpecEditor';

export function ResourceEditor({
  kind,
  row,
  back,
}: {
  kind: SettingsResourceKind;
  row?: SettingsResourceRow;
  back: ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = row && (requested === 'jobHistory' || (requested === 'manageTeam' && kind.members)) ? requested : 'spec';
  const setTab = (t: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (t === 'spec') next.delete('tab');
        else next.set('tab', t);
        return next;
      },
      { replace: true },
    );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="space-y-1.5">
          {back}
          <Breadcrumb
            items={[
              { label: 'Settings' },
              { label: kind.list?.title ?? kind.title, to: kind.list?.to ?? `/settings/${kind.table}` },
              { label: row ? row.name : `New ${kind.singular}` },
            ]}
          />
        </div>
        {row && (
          <span className="inline-flex items-center gap-2 text-[12.5px] text-muted">
            Source <SourceBadge source={row.source} />
          </span>
        )}
      </div>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="spec">Spec</TabsTrigger>
          {row && kind.members && <TabsTrigger value="manageTeam">Members</TabsTrigger>}
          {row && <TabsTrigger value="jobHistory">Job History</TabsTrigger>}
        </TabsList>
        <TabsContent value="spec" className="pt-4">
          <SpecEditor kind={kind} row={row} />
        </TabsContent>
        {row && kind.members && (
          <TabsContent value="manageTeam" className="pt-4">
            <TeamMembersTab kind={kind} team={row} />
          </TabsContent>
        )}
        {row && (
          <TabsContent value="jobHistory" className="pt-4">
            <ResourceJobHistory resourceId={row.id} resourceType={kind.jobResourceType} />
          </TabsContent>
        )}
      </Tabs>
    </div>
  );
}

function ResourceJobHistory({ resourceId, resourceType }: { resourceId: string; resourceType?: string }) {
  const list = useListState({ defaultPageSize: 150, defaultSortBy: 'created_at', defaultSortOrder: 'desc' });
  return <JobHistoryTable filters={{ resourceId, resourceType, status: { include: [], exclude: [] } }} list={list} />;
}
