// Form schemas of the identity pages (react-hook-form + zod).
import { z } from 'zod';

export const REQUIRED = 'This field is required';
export const MIN_PASSWORD = 8;

export const password = z
  .string()
  .min(1, REQUIRED)
  .min(MIN_PASSWORD, `Password must be at least ${MIN_PASSWORD} characters`);

export const newPasswordSchema = z
  .object({ password, confirm: z.string().min(1, REQUIRED) })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Passwords do not match' });

/** Looks like x@y.z (spec/3 §5). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const emailField = z
  .string()
  .trim()
  .min(1, REQUIRED)
  .pipe(z.string().regex(EMAIL_PATTERN, 'Entered value does not match email format'));
