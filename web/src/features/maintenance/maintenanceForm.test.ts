import { describe, expect, it } from 'vitest';
import {
  EMPTY_MAINTENANCE_FORM,
  entryOfLine,
  formOfResource,
  formProblems,
  resourceOfForm,
  type MaintenanceForm,
} from './maintenanceForm';

const form = (patch: Partial<MaintenanceForm>): MaintenanceForm => ({ ...EMPTY_MAINTENANCE_FORM, ...patch });

describe('maintenance form', () => {
  it('reads entry lines as names, ids and label selectors', () => {
    expect(entryOfLine('checkout')).toEqual({ name: 'checkout' });
    expect(entryOfLine('11111111-2222-3333-4444-555555555555')).toEqual({ id: '11111111-2222-3333-4444-555555555555' });
    expect(entryOfLine('label: tier=public')).toEqual({ labelSelector: 'tier=public' });
  });

  it('says what is missing', () => {
    expect(formProblems(form({}))).toMatchObject({
      name: 'A name is required',
      start: 'A start is required',
      end: 'An end is required',
      checks: 'Choose what is in maintenance: checks, components or status pages',
    });
    expect(formProblems(form({ kind: 'recurring', name: 'x', statusPages: 'Bad Page' }))).toEqual({
      schedule: 'A schedule is required, e.g. 0 2 * * 0',
      duration: 'A duration is required, e.g. 2h',
      statusPages: '"Bad Page" is not a status page address',
    });
    expect(
      formProblems(form({ name: 'x', start: '2026-03-01T12:00', end: '2026-03-01T10:00', checks: 'web' })).end,
    ).toBe('The end must be after the start');
  });

  it('becomes a resource and back', () => {
    const recurring = form({
      name: 'nightly',
      message: 'Backups',
      kind: 'recurring',
      schedule: '0 2 * * *',
      duration: '1h',
      timezone: 'Europe/Berlin',
      checks: 'db\nlabel: tier=db',
      statusPages: 'shop',
      silence: false,
    });
    const r = resourceOfForm(recurring);
    expect(r).toEqual({
      apiVersion: 'opsdeck.dev/v1',
      kind: 'MaintenanceWindow',
      metadata: { name: 'nightly' },
      spec: {
        message: 'Backups',
        schedule: '0 2 * * *',
        duration: '1h',
        timezone: 'Europe/Berlin',
        checks: [{ name: 'db' }, { labelSelector: 'tier=db' }],
        statusPages: ['shop'],
        silence: false,
      },
    });
    expect(formOfResource(r)).toEqual(recurring);
    const once = form({ name: 'up', start: '2026-03-01T10:00', end: '2026-03-01T12:00', components: 'Checkout' });
    const back = formOfResource(resourceOfForm(once));
    expect(back).toEqual(once);
  });
});
