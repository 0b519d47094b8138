// The invite and edit-user forms (spec/3 §5): one schema for the web form and the server.
import { z } from 'zod';
import { ROLES } from './rbac.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const name = (message: string) => z.string({ error: message }).trim().min(1, message).max(100, message);

export const inviteUserSchema = z.object({
  firstName: name('Please provide valid first name'),
  lastName: name('Please provide valid last name'),
  email: z
    .string({ error: 'Please provide valid email' })
    .trim()
    .min(1, 'Please provide valid email')
    .max(254, 'Please provide valid email')
    .regex(EMAIL, 'Entered value does not match email format'),
  role: z.enum(ROLES, { error: 'Please select any role' }),
});
export type InviteUser = z.infer<typeof inviteUserSchema>;

export const updateUserSchema = inviteUserSchema.partial().extend({
  state: z.enum(['active', 'inactive'], { error: 'State must be active or inactive' }).optional(),
});
export type UpdateUser = z.infer<typeof updateUserSchema>;

/** "Ada Lovelace" → first "Ada", last "Lovelace" (a person's name is stored whole). */
export function splitName(full: string): { first: string; last: string } {
  const trimmed = full.trim();
  const space = trimmed.indexOf(' ');
  return space < 0
    ? { first: trimmed, last: '' }
    : { first: trimmed.slice(0, space), last: trimmed.slice(space + 1).trim() };
}
