// The playbook action types by their key in an action: adding a type is one module and one line here.
import type { PlaybookAction } from './action.js';
import { execAction } from './exec.js';
import { gitopsAction } from './gitops.js';
import { httpAction } from './http.js';
import { logsAction } from './logs.js';
import { notificationAction } from './notification.js';
import { sqlAction } from './sql.js';

export const actionTypes: ReadonlyMap<string, PlaybookAction> = new Map<string, PlaybookAction>([
  [execAction.type, execAction],
  [httpAction.type, httpAction],
  [sqlAction.type, sqlAction],
  [notificationAction.type, notificationAction],
  [gitopsAction.type, gitopsAction as PlaybookAction],
  [logsAction.type, logsAction as PlaybookAction],
]);

/** Action types of mission-control that Opsdeck does not run yet: refused by name at apply time. */
export const UNSUPPORTED_ACTION_TYPES = ['pod', 'github', 'azureDevopsPipeline', 'ai'];

/** Why an action type is refused, for the apply error. */
export function unsupportedActionMessage(type: string, supported: string): string {
  return `the ${type} action is not supported yet (supported: ${supported})`;
}
