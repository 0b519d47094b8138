// The incident service calls shared by every screen that opens incidents or attaches evidence
// (spec/2 §7): create an incident (with its root hypothesis and optional evidence, one
// transaction on the server), attach evidence to an existing one, and look incidents and their
// hypotheses up for pickers.
import { api, request } from '../../api/client';
import { containsPattern, db, quoteListItem } from '../../api/postgrest';

export type EvidenceType = 'log' | 'topology' | 'config' | 'check' | 'config_change' | 'config_analysis' | 'comment';

/** What a screen attaches to an incident. */
export interface EvidenceInput {
  type: EvidenceType;
  description: string;
  evidence?: Record<string, unknown>;
  component_id?: string;
  config_id?: string;
  check_id?: string;
  config_change_id?: string;
  config_analysis_id?: string;
  definition_of_done?: boolean;
}

export interface NewIncident {
  title: string;
  description?: string;
  severity: string;
  type: string;
  status?: string;
  commander_id?: string;
  communicator_id?: string;
  evidence?: EvidenceInput;
}

export interface CreatedIncident {
  id: string;
  incident_id: string;
  hypothesis_id: string;
}

export interface IncidentPick {
  id: string;
  incident_id: string;
  title: string;
  status: string;
}

export interface HypothesisPick {
  id: string;
  title: string | null;
  type: string;
}

const enc = encodeURIComponent;

export const incidentService = {
  create: (body: NewIncident) => api.post<CreatedIncident>('/api/incidents', body),

  /**
   * Attaches evidence to the root hypothesis of the incident, or to `hypothesis_id`; with
   * `hypothesis_title`, to a new hypothesis created under that one (or the root).
   */
  attachEvidence: (incidentId: string, body: EvidenceInput & { hypothesis_id?: string; hypothesis_title?: string }) =>
    api.post<{ incident_id: string; hypothesis_id: string; evidence_id: string }>(
      `/api/incidents/${enc(incidentId)}/evidence`,
      body,
    ),

  /** Incidents whose title or Id contains `text`, newest first (25 at most). */
  async search(text: string, signal?: AbortSignal): Promise<IncidentPick[]> {
    const params = db('incidents')
      .select('id,incident_id,title,status')
      .order('created_at', { ascending: false })
      .limit(25)
      .toSearchParams();
    const t = text.trim();
    if (t) {
      const p = quoteListItem(containsPattern(t));
      params.set('or', `(title.ilike.${p},incident_id.ilike.${p})`);
    }
    const res = await request<IncidentPick[]>('/api/db/incidents', { query: params, signal });
    return res.data ?? [];
  },

  async hypotheses(incidentId: string, signal?: AbortSignal): Promise<HypothesisPick[]> {
    const { data } = await db<HypothesisPick>('hypotheses')
      .select('id,title,type')
      .eq('incident_id', incidentId)
      .order('created_at')
      .limit(200)
      .list(signal);
    return data;
  },
};
