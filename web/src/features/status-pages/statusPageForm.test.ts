import { describe, expect, it } from 'vitest';
import { EMPTY_STATUS_PAGE_FORM, entryOfLine, formOfResource, formProblems, resourceOfForm } from './statusPageForm';

describe('status page form', () => {
  it('reads a line as an id, a label selector or a name', () => {
    expect(entryOfLine('6C3EE1C2-0000-4000-8000-000000000000')).toEqual({ id: '6c3ee1c2-0000-4000-8000-000000000000' });
    expect(entryOfLine('label: tier=public, env in (a,b)')).toEqual({ labelSelector: 'tier=public, env in (a,b)' });
    expect(entryOfLine('  web  ')).toEqual({ name: 'web' });
    expect(entryOfLine('   ')).toBeUndefined();
  });

  it('turns the form into a StatusPage resource and back', () => {
    const form = {
      ...EMPTY_STATUS_PAGE_FORM,
      slug: 'shop',
      title: 'Shop',
      private: true,
      sections: [{ name: 'Web', checks: 'web\nlabel: tier=public\n', components: '' }],
    };
    const resource = resourceOfForm(form);
    expect(resource).toEqual({
      apiVersion: 'opsdeck.dev/v1',
      kind: 'StatusPage',
      metadata: { name: 'shop' },
      spec: {
        title: 'Shop',
        private: true,
        sections: [{ name: 'Web', checks: [{ name: 'web' }, { labelSelector: 'tier=public' }] }],
      },
    });
    expect(formOfResource(resource)).toEqual({
      ...form,
      sections: [{ name: 'Web', checks: 'web\nlabel: tier=public', components: '' }],
    });
  });

  it('asks for an address-like slug and a title', () => {
    expect(formProblems({ ...EMPTY_STATUS_PAGE_FORM, slug: 'Shop Page' })).toEqual({
      slug: 'Use 1-63 lower-case letters, digits and "-" (it is the page\'s address)',
      title: 'Give the page a title',
    });
    expect(formProblems({ ...EMPTY_STATUS_PAGE_FORM, slug: 'shop', title: 'Shop' })).toEqual({});
  });
});
