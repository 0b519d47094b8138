// The calls of the incident screens (spec/2 §7): the paged list with its filters, one incident
// with its hypotheses (and their evidence), comments, responders and changelog through /api/db,
// and the writes: status, severity and type, hypotheses, evidence, comments and responders.
import { api, request } from '../../api/client';
import { containsPattern, db, totalFromContentRange, type ListResult } from '../../api/postgrest';
import { applyFilters, listSelect, type IncidentFilters } from './filters';
import type {
  CommentRow,
  EvidenceRow,
  HistoryRow,
  HypothesisRow,
  IncidentRow,
  PersonRef,
  ResponderRow,
  TeamRef,
} from './types';

const enc = encodeURIComponent;

const EVIDENCE_SELECT =
  '*,check:check_id(id,name,status,icon,type),component:component_id(id,name,icon,health,type),' +
  'config:config_id(id,name,type,health),config_change:config_change_id(id,summary,change_type,severity),' +
  'config_analysis:config_analysis_id(id,message,analyzer,severity,status)';

const RESPONDER_SELECT = '*,team:team_id(id,name,icon,spec),person:person_id(id,name,avatar)';

export const incidentsApi = {
  async list(
    filters: IncidentFilters,
    page: { pageIndex: number; pageSize: number },
    signal?: AbortSignal,
  ): Promise<ListResult<IncidentRow>> {
    const base = db('incidents')
      .select(listSelect())
      .order('created_at', { ascending: false })
      .page(page.pageIndex, page.pageSize)
      .toSearchParams();
    base.set('responders.deleted_at', 'is.null');
    const res = await request<IncidentRow[]>('/api/db/incidents', {
      query: applyFilters(base, filters),
      signal,
      headers: { Prefer: 'count=exact' },
    });
    return { data: res.data ?? [], total: totalFromContentRange(res.headers.get('content-range')) };
  },

  /** The incident, or null when there is none (or the id is not one). */
  async incident(id: string, signal?: AbortSignal): Promise<IncidentRow | null> {
    try {
      const row = await db<IncidentRow>('incidents')
        .select(
          '*,commander:commander_id(id,name,avatar),communicator:communicator_id(id,name,avatar),creator:created_by(id,name,avatar)',
        )
        .eq('id', id)
        .single(signal);
      return row ?? null;
    } catch (e) {
      // A malformed id answers 400 (22P02): the same as a missing incident for the page.
      if (e instanceof Error && 'status' in e && (e as { status: number }).status === 400) return null;
      throw e;
    }
  },

  async hypotheses(incidentId: string, signal?: AbortSignal): Promise<HypothesisRow[]> {
    const { data } = await db<HypothesisRow>('hypotheses')
      .select(`*,evidences(${EVIDENCE_SELECT})`)
      .eq('incident_id', incidentId)
      .order('created_at')
      .limit(500)
      .list(signal);
    return data;
  },

  async comments(incidentId: string, signal?: AbortSignal): Promise<CommentRow[]> {
    const { data } = await db<CommentRow>('comments')
      .select('*,author:created_by(id,name,avatar)')
      .eq('incident_id', incidentId)
      .order('created_at')
      .limit(500)
      .list(signal);
    return data;
  },

  async responders(incidentId: string, signal?: AbortSignal): Promise<ResponderRow[]> {
    const { data } = await db<ResponderRow>('responders')
      .select(RESPONDER_SELECT)
      .eq('incident_id', incidentId)
      .is('deleted_at', null)
      .order('created_at')
      .limit(200)
      .list(signal);
    return data;
  },

  async history(incidentId: string, signal?: AbortSignal): Promise<HistoryRow[]> {
    const { data } = await db<HistoryRow>('incident_histories')
      .select(
        '*,creator:created_by(id,name,avatar),responder:responder_id(id,team:team_id(name),person:person_id(name)),' +
          'hypothesis:hypothesis_id(id,title),evidence:evidence_id(id,description,type)',
      )
      .eq('incident_id', incidentId)
      .order('created_at', { ascending: false })
      .limit(200)
      .list(signal);
    return data;
  },

  async people(search: string, signal?: AbortSignal): Promise<PersonRef[]> {
    const q = db<PersonRef>('people').select('id,name,email,avatar').order('name').limit(20);
    if (search.trim()) q.ilike('name', containsPattern(search.trim()));
    return (await q.list(signal)).data;
  },

  async teams(signal?: AbortSignal): Promise<TeamRef[]> {
    const { data } = await db<TeamRef>('teams')
      .select('id,name,icon,spec')
      .is('deleted_at', null)
      .order('name')
      .limit(200)
      .list(signal);
    return data;
  },

  async components(signal?: AbortSignal): Promise<Array<{ id: string; name: string }>> {
    const { data } = await db<{ id: string; name: string }>('components')
      .select('id,name')
      .is('deleted_at', null)
      .order('name')
      .limit(200)
      .list(signal);
    return data;
  },

  updateIncident: (id: string, values: Partial<Pick<IncidentRow, 'status' | 'severity' | 'type'>>) =>
    db<IncidentRow>('incidents').eq('id', id).update(values),

  async addHypothesis(h: {
    incident_id: string;
    parent_id: string | null;
    title: string;
    type: string;
    created_by: string;
  }): Promise<HypothesisRow> {
    const [row] = await db<HypothesisRow>('hypotheses').insert({ ...h, status: 'Possible' } as Partial<HypothesisRow>);
    return row;
  },

  updateHypothesis: (id: string, values: { status?: string; title?: string }) =>
    db<HypothesisRow>('hypotheses').eq('id', id).update(values),

  /**
   * Deletes hypotheses with their comments and evidence (spec/2 §4): one DELETE, whose foreign keys
   * cascade to the comments, the evidence and the sub-hypotheses in the same transaction, so a
   * failure leaves everything in place.
   */
  async deleteHypotheses(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await db('hypotheses').in('id', ids).delete();
  },

  async addEvidence(values: Partial<EvidenceRow> & { created_by: string }): Promise<EvidenceRow> {
    const [row] = await db<EvidenceRow>('evidences').insert(values);
    return row;
  },

  updateEvidence: (
    id: string,
    values: Partial<Pick<EvidenceRow, 'definition_of_done' | 'script' | 'done' | 'description' | 'evidence'>>,
  ) => db<EvidenceRow>('evidences').eq('id', id).update(values),

  /** Marks several evidences part of the definition of done. */
  markDefinitionOfDone: (ids: string[], script?: string) =>
    db<EvidenceRow>('evidences')
      .in('id', ids)
      .update(script ? { definition_of_done: true, script } : { definition_of_done: true }),

  deleteEvidence: (id: string) => db('evidences').eq('id', id).delete(),

  async addComment(c: {
    incident_id: string;
    hypothesis_id: string;
    comment: string;
    created_by: string;
  }): Promise<CommentRow> {
    const [row] = await db<CommentRow>('comments').insert(c);
    return row;
  },

  addResponder: (
    incidentId: string,
    body: {
      type: 'person' | 'system';
      team_id?: string;
      person_id?: string;
      properties: Record<string, unknown>;
    },
  ) => api.post<ResponderRow>(`/api/incidents/${enc(incidentId)}/responders`, body),

  deleteResponder: (id: string) =>
    db<ResponderRow>('responders').eq('id', id).update({ deleted_at: new Date().toISOString() }),
};
