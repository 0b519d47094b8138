// The invite form uses the shared schema (common/src/users.ts); these are the messages a person sees.
import { describe, expect, it } from 'vitest';
import { inviteUserSchema } from '@opsdeck/common/users';

/** Like the form: the first message per field. */
const messages = (input: Record<string, string>) => {
  const r = inviteUserSchema.safeParse(input);
  const out: Record<string, string> = {};
  if (!r.success) for (const i of r.error.issues) out[i.path.join('.')] ??= i.message;
  return out;
};

describe('invite user form', () => {
  it('accepts a complete invite', () => {
    expect(messages({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', role: 'editor' })).toEqual({});
  });

  it('shows the messages of spec/3 §5', () => {
    expect(messages({ firstName: ' ', lastName: '', email: '', role: '' })).toEqual({
      firstName: 'Please provide valid first name',
      lastName: 'Please provide valid last name',
      email: 'Please provide valid email',
      role: 'Please select any role',
    });
    expect(messages({ firstName: 'A', lastName: 'B', email: 'ada@example', role: 'admin' })).toEqual({
      email: 'Entered value does not match email format',
    });
  });
});
