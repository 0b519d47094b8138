// Rows of the incident area as /api/db returns them with the embeds the screens ask for.

export interface PersonRef {
  id: string;
  name: string;
  email?: string | null;
  avatar?: string | null;
}

export interface TeamRef {
  id: string;
  name: string;
  icon?: string | null;
  spec?: { responder_clients?: Record<string, ResponderClient> } | null;
}

export interface ResponderClient {
  values?: Record<string, unknown>;
  defaults?: Record<string, unknown>;
  linkUrl?: string;
}

export interface ResponderRow {
  id: string;
  incident_id: string;
  type: 'person' | 'system';
  team_id: string | null;
  person_id: string | null;
  properties: Record<string, unknown> & { responderType?: string };
  external_id: string | null;
  delivery_status: 'sent' | 'recorded' | 'failed' | null;
  delivery_error: string | null;
  created_at: string;
  deleted_at: string | null;
  acknowledge_time: string | null;
  signoff_time: string | null;
  close_time: string | null;
  team?: TeamRef | null;
  person?: PersonRef | null;
}

export interface IncidentRow {
  id: string;
  incident_id: string;
  title: string;
  description: string | null;
  type: string;
  severity: string;
  status: string;
  created_by: string | null;
  commander_id: string | null;
  communicator_id: string | null;
  created_at: string;
  updated_at: string;
  commander?: PersonRef | null;
  communicator?: PersonRef | null;
  creator?: PersonRef | null;
  responders?: ResponderRow[];
}

export interface EvidenceRow {
  id: string;
  hypothesis_id: string;
  type: string;
  description: string | null;
  evidence: Record<string, unknown> | null;
  component_id: string | null;
  config_id: string | null;
  check_id: string | null;
  config_change_id: string | null;
  config_analysis_id: string | null;
  definition_of_done: boolean;
  done: boolean | null;
  script: string | null;
  script_result: string | null;
  created_at: string;
  check?: { id: string; name: string; status: string | null; icon: string | null; type: string } | null;
  component?: { id: string; name: string; icon: string | null; health: string | null; type: string | null } | null;
  config?: { id: string; name: string | null; type: string; health: string | null } | null;
  config_change?: { id: string; summary: string | null; change_type: string; severity: string } | null;
  config_analysis?: { id: string; message: string | null; analyzer: string; severity: string; status: string } | null;
}

export interface CommentRow {
  id: string;
  incident_id: string;
  hypothesis_id: string | null;
  comment: string;
  created_by: string | null;
  external_created_by?: string | null;
  created_at: string;
  author?: PersonRef | null;
  /** Set on a comment shown before the server answered. */
  pending?: boolean;
}

export interface HypothesisRow {
  id: string;
  incident_id: string;
  parent_id: string | null;
  title: string | null;
  type: string;
  status: string | null;
  created_at: string;
  evidences?: EvidenceRow[];
}

export interface HistoryRow {
  id: string;
  type: string;
  description: string | null;
  created_at: string;
  creator?: PersonRef | null;
  responder?: { id: string; team?: { name: string } | null; person?: { name: string } | null } | null;
  hypothesis?: { id: string; title: string | null } | null;
  evidence?: { id: string; description: string | null; type: string } | null;
}
