// /settings/<table>/<id> (id 'new' to add): the edit page of a settings resource with Spec and
// Job History tabs, and for teams a Members tab (?tab=manageTeam, ../teams/TeamMembersTab). Spec has
// a Form tab (name, icon, namespace, labels, schedule, spec editor) and a Code tab (the whole
// resource as YAML or JSON, checked against its JSON Schema with the error lines shown). An invalid
// document is never saved. Name and namespace are read-only when editing; resources from another
// source (agent, file, Kubernetes) are read-only altogether. This file loads the resource; the
// editor is in ResourceEditor (tabs), SpecEditor (Spec tab) and useResourceDocument (its state).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../../../api/client';
import { EditorBackLink, EditorLoading, EditorUnavailable } from '../../../ui/editor-page';
import { usePageHeader } from '../../../ui/page-header';
import { settingsKeys } from '../keys';
import { settingsResourceKind } from './kinds';
import { ResourceEditor } from './ResourceEditor';
import { resourcesApi } from './resourcesApi';

export const NO_RESOURCES_FOUND = 'No resources found';

export default function SettingsResourceEditPage({
  table,
  list,
}: {
  table: string;
  /** Back link, breadcrumb and Cancel lead here instead of the kind's own list. */
  list?: { to: string; title: string };
}) {
  const base = settingsResourceKind(table)!;
  const kind = useMemo(() => (list ? { ...base, list } : base), [base, list]);
  const { id = 'new' } = useParams();
  const isNew = id === 'new';
  const resource = useQuery({
    queryKey: settingsKeys.resource(table, id),
    queryFn: ({ signal }) => resourcesApi.get(kind, id, signal),
    enabled: !isNew,
    meta: { silent: true }, // shown in place of the editor
  });

  usePageHeader({ title: isNew ? `New ${kind.singular}` : resource.data?.name });

  const back = <EditorBackLink to={kind.list?.to ?? `/settings/${table}`} label={kind.list?.title ?? kind.title} />;

  if (!isNew && resource.isPending) return <EditorLoading back={back} />;
  if (!isNew && (resource.isError || !resource.data))
    return (
      <EditorUnavailable back={back} title={resource.isError ? errorMessage(resource.error) : NO_RESOURCES_FOUND} />
    );
  // Keyed so that a different row (or a saved new one) starts a fresh editor.
  return <ResourceEditor key={resource.data?.id ?? 'new'} kind={kind} row={resource.data ?? undefined} back={back} />;
}
