// The Link to Incident dialog and the incident vocabularies and calls it shares with the incident screens.
export { LinkToIncidentButton } from './LinkToIncidentButton';
export { LinkToIncidentDialog } from './LinkToIncidentDialog';
export type { EvidenceInput, EvidenceType } from './incidentApi';
