import { describe, expect, it } from 'vitest';
import type { SilenceRow } from '../types';
import {
  EMPTY_SILENCE_FORM,
  humanSpan,
  isExpired,
  RESOURCE_REQUIRED,
  silenceFormErrors,
  silenceFormOfRow,
  silencePrefill,
  silenceResource,
  silenceRowOfForm,
  toLocalInput,
  UNTIL_IN_PAST,
  UNTIL_REQUIRED,
  withResourceKind,
} from './silenceForm';

const NOW = new Date('2024-05-01T10:00:00Z');

const row = (over: Partial<SilenceRow> = {}): SilenceRow => ({
  id: 's1',
  name: null,
  namespace: null,
  description: 'maintenance',
  filter: null,
  from: '2024-05-01T10:00:00.000Z',
  until: '2024-05-01T14:00:00.000Z',
  recursive: true,
  config_id: null,
  check_id: null,
  canary_id: null,
  component_id: 'c1',
  source: 'UI',
  created_by: null,
  created_at: '2024-05-01T10:00:00Z',
  updated_at: '2024-05-01T10:00:00Z',
  component_name: 'payments',
  ...over,
});

describe('silence form', () => {
  it('is prefilled from the Silence buttons’ query parameters', () => {
    expect(silencePrefill(new URLSearchParams('check_id=k1'))).toMatchObject({ kind: 'check', resourceId: 'k1' });
    expect(silencePrefill(new URLSearchParams('config_id=g1&name=db'))).toMatchObject({
      kind: 'config',
      resourceId: 'g1',
      resourceName: 'db',
    });
    expect(silencePrefill(new URLSearchParams('canary_id=n1'))).toMatchObject({ kind: 'canary', resourceId: 'n1' });
    expect(silencePrefill(new URLSearchParams('component_id=c1'))).toMatchObject({ kind: 'component' });
    expect(silencePrefill(new URLSearchParams(''))).toEqual(EMPTY_SILENCE_FORM);
  });

  it('clears the chosen resource when another kind is chosen', () => {
    const v = { ...EMPTY_SILENCE_FORM, kind: 'check' as const, resourceId: 'k1', resourceName: 'api' };
    expect(withResourceKind(v, 'component')).toMatchObject({
      kind: 'component',
      resourceId: '',
      resourceName: undefined,
    });
    expect(withResourceKind(v, 'check')).toBe(v);
  });

  it('needs a resource or a namespace, and an end in the future', () => {
    expect(silenceFormErrors(EMPTY_SILENCE_FORM, NOW)).toEqual({ resource: RESOURCE_REQUIRED });
    expect(silenceFormErrors({ ...EMPTY_SILENCE_FORM, namespace: 'prod' }, NOW)).toEqual({});
    const custom = { ...EMPTY_SILENCE_FORM, resourceId: 'k1', duration: 'custom' as const };
    expect(silenceFormErrors(custom, NOW)).toEqual({ until: UNTIL_REQUIRED });
    expect(silenceFormErrors({ ...custom, until: toLocalInput(new Date(NOW.getTime() - 60_000)) }, NOW)).toEqual({
      until: UNTIL_IN_PAST,
    });
  });

  it('writes one resource id, from now until now + the chosen duration', () => {
    const v = { ...EMPTY_SILENCE_FORM, kind: 'component' as const, resourceId: 'c1', duration: '4h' as const };
    expect(silenceRowOfForm({ ...v, description: ' deploy ', recursive: true }, NOW)).toEqual({
      check_id: null,
      config_id: null,
      component_id: 'c1',
      canary_id: null,
      namespace: null,
      from: '2024-05-01T10:00:00.000Z',
      until: '2024-05-01T14:00:00.000Z',
      description: 'deploy',
      recursive: true,
      source: 'UI',
    });
  });

  it('reads a stored silence back into the form and writes the same row', () => {
    const r = row();
    const v = silenceFormOfRow(r);
    expect(v).toMatchObject({ kind: 'component', resourceId: 'c1', resourceName: 'payments', duration: 'custom' });
    expect(silenceRowOfForm(v, new Date(r.from))).toMatchObject({
      component_id: 'c1',
      from: r.from,
      until: r.until,
      recursive: true,
    });
  });

  it('names and links the silenced resource, and knows when a silence has expired', () => {
    expect(silenceResource(row())).toMatchObject({ label: 'Component', name: 'payments', href: '/topology/c1' });
    expect(silenceResource(row({ component_id: null, check_id: 'k 1' }))?.href).toBe('/health?checkId=k%201');
    expect(silenceResource(row({ component_id: null, namespace: 'prod' }))).toBeUndefined();
    expect(isExpired(row(), new Date('2024-05-01T15:00:00Z'))).toBe(true);
    expect(isExpired(row(), NOW)).toBe(false);
    expect(isExpired({ ...row(), expired: true }, NOW)).toBe(true);
  });

  it('says how long a silence lasts', () => {
    expect(humanSpan('2024-05-01T10:00:00Z', '2024-05-01T14:00:00Z')).toBe('4h');
    expect(humanSpan('2024-05-01T10:00:00Z', '2024-05-02T12:30:00Z')).toBe('1d 2h');
    expect(humanSpan('2024-05-01T10:00:00Z', '2024-05-01T10:45:00Z')).toBe('45m');
  });
});
