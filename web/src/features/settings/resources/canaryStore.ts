// Health checks (canaries) on the generic settings pages: the applied-resource store bound to
// /api/canary and the Canary kind (the HTTP check forms live in ./canary/).
import {
  appliedProblemsOf,
  appliedResourceApi,
  documentFromResource,
  documentOfStored,
  emptyAppliedDocument,
  resourceOf,
  type AppliedResource,
} from './appliedResourceStore';
import { CANARY_RESOURCE_API } from './kinds';
import type { ResourceDocument, SettingsResourceRow } from './resourcesApi';

export type AppliedCanary = AppliedResource & { checks?: unknown };

export const canaryDocumentOf = (row: SettingsResourceRow): ResourceDocument =>
  documentOfStored(CANARY_RESOURCE_API, row);
export const canaryDocumentFromResource = documentFromResource;
export const canaryResourceOf = (doc: ResourceDocument) => resourceOf(CANARY_RESOURCE_API, doc);
export const emptyCanaryDocument = (): ResourceDocument => emptyAppliedDocument(CANARY_RESOURCE_API);
export const canaryProblemsOf = appliedProblemsOf;

export const canaryStore = {
  apply: (text: string, language: 'yaml' | 'json'): Promise<AppliedCanary> =>
    appliedResourceApi.apply(CANARY_RESOURCE_API, text, language),
  remove: (id: string) => appliedResourceApi.remove(CANARY_RESOURCE_API, id),
};
