import { describe, expect, it } from 'vitest';
import {
  allowedStatusMoves,
  asksForDefinitionOfDone,
  canMoveStatus,
  childHypothesisType,
  displayHypothesisStatus,
  headerToggle,
  INCIDENT_STATUSES,
  mentionedPeople,
  normalizeEvidenceType,
  RESPONDER_TYPE_FIELDS,
  RESPONDER_TYPE_LABELS,
  RESPONDER_TYPES,
  responderProgress,
  severityColour,
  summarizeSeverities,
  validateResponderFields,
} from './incidents.js';

describe('incident status moves', () => {
  it('always offers the current status first', () => {
    for (const s of INCIDENT_STATUSES) expect(allowedStatusMoves(s)[0]).toBe(s);
  });

  it('follows the table of spec/2 §4', () => {
    expect(allowedStatusMoves('new')).toEqual(['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed']);
    expect(allowedStatusMoves('open')).toEqual(['open', 'investigating', 'mitigated', 'resolved', 'closed']);
    expect(allowedStatusMoves('investigating')).toEqual(['investigating', 'mitigated', 'resolved', 'closed']);
    expect(allowedStatusMoves('mitigated')).toEqual(['mitigated', 'resolved', 'closed', 'open']);
    expect(allowedStatusMoves('resolved')).toEqual(['resolved', 'closed', 'open']);
    expect(allowedStatusMoves('closed')).toEqual(['closed', 'open']);
  });

  it('moves a closed incident to open only through Reopen', () => {
    expect(canMoveStatus('closed', 'open')).toBe(true);
    expect(canMoveStatus('closed', 'investigating')).toBe(false);
    expect(canMoveStatus('open', 'new')).toBe(false);
    expect(canMoveStatus('resolved', 'resolved')).toBe(true);
    expect(headerToggle('open')).toEqual({ label: 'Close', to: 'closed' });
    expect(headerToggle('mitigated')).toEqual({ label: 'Reopen', to: 'open' });
  });

  it('asks for the definition of done only before mitigated and resolved', () => {
    expect(INCIDENT_STATUSES.filter(asksForDefinitionOfDone)).toEqual(['mitigated', 'resolved']);
  });
});

describe('severities', () => {
  it('merges low into medium and blocker into critical in summaries', () => {
    expect(summarizeSeverities({ low: 2, medium: 1, critical: 1, blocker: 1, info: 3, warning: 1 })).toEqual({
      critical: 2,
      high: 0,
      medium: 3,
      info: 4,
    });
  });

  it('colours critical red, high orange, warning yellow, info gray, low and medium green', () => {
    expect(['critical', 'high', 'warning', 'info', 'low', 'medium'].map((s) => severityColour(s as never))).toEqual([
      'red',
      'orange',
      'yellow',
      'gray',
      'green',
      'green',
    ]);
  });
});

describe('hypotheses and evidence', () => {
  it('shows Likely for a hypothesis without a status', () => {
    expect(displayHypothesisStatus(null)).toBe('Likely');
    expect(displayHypothesisStatus('Disproven')).toBe('Disproven');
  });

  it('nests root, factor, solution', () => {
    expect(childHypothesisType('root')).toBe('factor');
    expect(childHypothesisType('factor')).toBe('solution');
    expect(childHypothesisType('solution')).toBeNull();
  });

  it('reads Config and Topology as the stored types', () => {
    expect(normalizeEvidenceType('Config')).toBe('config');
    expect(normalizeEvidenceType('Topology')).toBe('topology');
    expect(normalizeEvidenceType('screenshot')).toBeNull();
  });
});

describe('responders', () => {
  it('labels every type', () => {
    expect(RESPONDER_TYPES.map((t) => RESPONDER_TYPE_LABELS[t])).toContain('AWS AMS Service Request');
    expect(RESPONDER_TYPE_FIELDS.redhat).toEqual(['product', 'category', 'description', 'body']);
  });

  it('requires every field with "Please provide valid value"', () => {
    expect(validateResponderFields('email', { to: 'ops@example.com', subject: ' ', body: 'x' })).toEqual({
      subject: 'Please provide valid value',
    });
    expect(validateResponderFields('email', { to: 'not an address', subject: 's', body: 'b' })).toEqual({
      to: 'Please provide valid value',
    });
    expect(validateResponderFields('jira', { project: 'OPS', issueType: 'Bug', priority: 'P1', summary: 's' })).toEqual(
      { description: 'Please provide valid value' },
    );
    expect(validateResponderFields('person', { person: 'p-1' })).toEqual({});
  });

  it('puts the current step at the first missing time', () => {
    expect(responderProgress({})).toBe('Acknowledged');
    expect(responderProgress({ acknowledge_time: '2026-01-01T00:00:00Z' })).toBe('Resolved');
    expect(responderProgress({ acknowledge_time: 'a', signoff_time: 'b' })).toBe('Closed');
    expect(responderProgress({ acknowledge_time: 'a', signoff_time: 'b', close_time: 'c' })).toBeNull();
  });
});

it('finds mentioned people in a comment', () => {
  expect(mentionedPeople('hi @[Ann Lee](user:0f9a-12) and @[Bo](user:abc)')).toEqual(['0f9a-12', 'abc']);
});
