// The calls of the notifications screens: send history, rules and silences read through /api/db
// (their summary views) and written through /api/db with the server's validation; a rule's YAML
// applied through POST /api/notification. Soft deletes set deleted_at (spec/3 §4).
import { api, request } from '../../api/client';
import { db } from '../../api/postgrest';
import { applyHistoryFilters, type HistoryFilters } from './history/historyFilters';
import type { RuleWrite } from './rules/ruleForm';
import type { SilenceWrite } from './silences/silenceForm';
import type { NotificationRuleRow, SendHistoryRow, SilenceRow } from './types';

export interface PageRequest {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

export interface AppliedNotification {
  id: string;
  name: string;
  namespace: string;
  created: boolean;
}

const HISTORY = 'notification_send_history_summary';
const RULES = 'notifications_summary';
const SILENCES = 'notification_silences_summary';

const HISTORY_LIST_COLUMNS =
  'id,notification_id,notification_name,status,source_event,resource_id,resource_type,resource,resource_name,' +
  'person_id,person_name,recipient,title,error,duration_millis,count,first_observed,attempts,reason,' +
  'silenced_by,inhibited_by,group_id,parent_id,created_at';

const now = () => new Date().toISOString();

export const notificationsApi = {
  history: (filters: HistoryFilters, page: Pick<PageRequest, 'pageIndex' | 'pageSize'>, signal?: AbortSignal) =>
    applyHistoryFilters(db<SendHistoryRow>(HISTORY).select(HISTORY_LIST_COLUMNS), filters)
      .order('created_at', { ascending: false })
      .page(page.pageIndex, page.pageSize)
      .list(signal),

  historyEntry: (id: string, signal?: AbortSignal) =>
    db<SendHistoryRow>(HISTORY).select('*').eq('id', id).single(signal),

  rules: (page: PageRequest, signal?: AbortSignal) =>
    db<NotificationRuleRow>(RULES)
      .select('*')
      .order(page.sortBy ?? 'name', { ascending: page.sortOrder === 'asc', nulls: 'last' })
      .page(page.pageIndex, page.pageSize)
      .list(signal),

  rule: (id: string, signal?: AbortSignal) => db<NotificationRuleRow>(RULES).select('*').eq('id', id).single(signal),

  createRule: (row: RuleWrite, createdBy: string) =>
    db<NotificationRuleRow>('notifications').insert({ ...row, created_by: createdBy }),

  updateRule: (id: string, row: RuleWrite) =>
    db<NotificationRuleRow>('notifications')
      .eq('id', id)
      .update({ ...row, updated_at: now() }),

  deleteRule: (id: string) => db<NotificationRuleRow>('notifications').eq('id', id).update({ deleted_at: now() }),

  /** Applies Notification YAML (or JSON) text: 400 answers carry positions in `errors`. */
  applyRule: async (text: string, language: 'yaml' | 'json' = 'yaml') =>
    (
      await request<{ applied: AppliedNotification[] }>('/api/notification', {
        method: 'POST',
        rawBody: text,
        headers: { 'Content-Type': language === 'json' ? 'application/json' : 'application/yaml' },
      })
    ).data,

  /** A stored rule as Notification YAML. */
  ruleYaml: (id: string, signal?: AbortSignal) =>
    api.get<string>(`/api/notification/${encodeURIComponent(id)}/spec`, { signal }),

  silences: (page: PageRequest, signal?: AbortSignal) =>
    db<SilenceRow>(SILENCES)
      .select('*')
      .order(page.sortBy ?? 'created_at', { ascending: page.sortOrder === 'asc', nulls: 'last' })
      .page(page.pageIndex, page.pageSize)
      .list(signal),

  silence: (id: string, signal?: AbortSignal) => db<SilenceRow>(SILENCES).select('*').eq('id', id).single(signal),

  createSilence: (row: SilenceWrite, createdBy: string) =>
    db<SilenceRow>('notification_silences').insert({ ...row, created_by: createdBy }),

  updateSilence: (id: string, row: SilenceWrite) =>
    db<SilenceRow>('notification_silences')
      .eq('id', id)
      .update({ ...row, updated_at: now() }),

  deleteSilence: (id: string) => db<SilenceRow>('notification_silences').eq('id', id).update({ deleted_at: now() }),
};
