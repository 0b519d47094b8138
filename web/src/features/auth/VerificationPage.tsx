// /verification: the outcome of an email verification link (?verified=true or ?error=…), and a
// form to send a new link.
import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheck, MailWarning } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/input';
import { AuthCard } from './AuthCard';
import { authApi } from './authApi';
import { flowErrorMessage, flowMessageForCode } from './flowErrors';
import { emailField } from './schemas';

function ResendForm() {
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string>();
  const form = useForm<{ email: string }>({
    resolver: zodResolver(z.object({ email: emailField })),
    defaultValues: { email: '' },
  });
  const submit = form.handleSubmit(async ({ email }) => {
    setError(undefined);
    try {
      await authApi.sendVerificationEmail(email);
      setSent(true);
    } catch (e) {
      setError(flowErrorMessage(e));
    }
  });
  if (sent) return <Alert tone="success">We sent a new verification link. Check your inbox.</Alert>;
  return (
    <form onSubmit={submit} className="space-y-3" noValidate>
      {error && <Alert tone="error">{error}</Alert>}
      <Field label="Email" error={form.formState.errors.email?.message}>
        {(id, d) => (
          <Input
            id={id}
            type="email"
            aria-describedby={d}
            invalid={!!form.formState.errors.email}
            {...form.register('email')}
          />
        )}
      </Field>
      <Button type="submit" variant="outline" className="w-full" loading={form.formState.isSubmitting}>
        Send a new verification link
      </Button>
    </form>
  );
}

export default function VerificationPage() {
  const [params] = useSearchParams();
  const error = params.get('error');
  // A bad link comes back as ?verified=true&error=… (the error is appended to the callback URL).
  const verified = params.get('verified') === 'true' && !error;
  const footer = (
    <Link to="/" className="font-medium text-primary hover:underline">
      Continue to Opsdeck
    </Link>
  );

  if (verified) {
    return (
      <AuthCard title="Email verified" footer={footer}>
        <div className="flex gap-3" data-testid="verification-result">
          <CircleCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
          <p className="text-sm text-muted">
            Your email address is verified. You can now use it to sign in and receive notifications.
          </p>
        </div>
      </AuthCard>
    );
  }
  if (error) {
    return (
      <AuthCard title="Verification failed" footer={footer}>
        <div className="space-y-5" data-testid="verification-result">
          <div className="flex gap-3">
            <MailWarning className="mt-0.5 size-5 shrink-0 text-danger" aria-hidden />
            <p className="text-sm text-muted">
              {flowMessageForCode(error) ?? 'We could not verify your email address with this link.'}{' '}
              <span className="font-mono text-[12px] text-subtle">({error})</span>
            </p>
          </div>
          <ResendForm />
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Verify your email"
      subtitle="Open the link we emailed you. Lost it? Send a new one."
      footer={footer}
    >
      <ResendForm />
    </AuthCard>
  );
}
