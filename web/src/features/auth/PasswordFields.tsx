// The new-password pair of the registration, recovery and profile forms.
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field, Input } from '../../ui/input';

/** New password and its confirmation. */
export function PasswordFields({
  password: passwordProps,
  confirm,
  errors,
  label = 'Password',
}: {
  label?: string;
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  errors: { password?: string; confirm?: string };
}) {
  return (
    <>
      <Field label={label} error={errors.password} hint="At least 8 characters.">
        {(id, d) => (
          <Input
            id={id}
            type="password"
            autoComplete="new-password"
            aria-describedby={d}
            invalid={!!errors.password}
            {...passwordProps}
          />
        )}
      </Field>
      <Field label={`Confirm ${label.toLowerCase()}`} error={errors.confirm}>
        {(id, d) => (
          <Input
            id={id}
            type="password"
            autoComplete="new-password"
            aria-describedby={d}
            invalid={!!errors.confirm}
            {...confirm}
          />
        )}
      </Field>
    </>
  );
}
