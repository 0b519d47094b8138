// /recovery: ask for a password-reset link by email; with ?token= (the emailed link) choose a new
// password. An expired or used link says so and offers the request form again.
import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { useAuthConfig } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/input';
import { toast } from '../../ui/toast';
import { AuthCard } from './AuthCard';
import { authApi } from './authApi';
import { FLOW_EXPIRED, flowErrorMessage, flowMessageForCode } from './flowErrors';
import { PasswordFields } from './PasswordFields';
import { emailField, newPasswordSchema } from './schemas';

const backToSignIn = (
  <Link to="/login" className="font-medium text-primary hover:underline">
    Back to sign in
  </Link>
);

function RequestLink({ initialError }: { initialError?: string }) {
  const config = useAuthConfig();
  const [sentTo, setSentTo] = useState<string>();
  const [error, setError] = useState(initialError);
  const form = useForm<{ email: string }>({
    resolver: zodResolver(z.object({ email: emailField })),
    defaultValues: { email: '' },
  });

  const submit = form.handleSubmit(async ({ email }) => {
    setError(undefined);
    try {
      await authApi.requestPasswordReset(email);
      setSentTo(email);
    } catch (e) {
      setError(flowErrorMessage(e));
    }
  });

  if (sentTo) {
    return (
      <AuthCard title="Check your email" footer={backToSignIn}>
        <div className="flex gap-3">
          <MailCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
          <p className="text-sm text-muted" data-testid="recovery-sent">
            If an account exists for <strong className="text-foreground">{sentTo}</strong>, we sent it a link to reset
            the password.
          </p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset your password"
      subtitle="Enter your email and we will send you a link to choose a new password."
      footer={backToSignIn}
    >
      {error && (
        <Alert tone="error" className="mb-4">
          {error}
        </Alert>
      )}
      {config.data && !config.data.smtp && (
        <Alert tone="warning" className="mb-4">
          This server cannot send email. Ask an administrator to reset your password.
        </Alert>
      )}
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Email" error={form.formState.errors.email?.message}>
          {(id, d) => (
            <Input
              id={id}
              type="email"
              autoComplete="email"
              autoFocus
              aria-describedby={d}
              invalid={!!form.formState.errors.email}
              {...form.register('email')}
            />
          )}
        </Field>
        <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
          Send reset link
        </Button>
      </form>
    </AuthCard>
  );
}

function ChoosePassword({ token, onExpired }: { token: string; onExpired(): void }) {
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const form = useForm<{ password: string; confirm: string }>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirm: '' },
  });

  const submit = form.handleSubmit(async ({ password }) => {
    setError(undefined);
    try {
      await authApi.resetPassword(token, password);
      toast.success('Your password was reset. Sign in with the new password.');
      navigate('/login', { replace: true });
    } catch (e) {
      const message = flowErrorMessage(e);
      if (message === FLOW_EXPIRED) onExpired();
      else setError(message);
    }
  });

  return (
    <AuthCard title="Choose a new password" footer={backToSignIn}>
      {error && (
        <Alert tone="error" className="mb-4">
          {error}
        </Alert>
      )}
      <form onSubmit={submit} className="space-y-4" noValidate>
        <PasswordFields
          password={form.register('password')}
          confirm={form.register('confirm')}
          errors={{
            password: form.formState.errors.password?.message,
            confirm: form.formState.errors.confirm?.message,
          }}
        />
        <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
          Reset password
        </Button>
      </form>
    </AuthCard>
  );
}

export default function RecoveryPage() {
  const [params, setParams] = useSearchParams();
  const token = params.get('token');
  // The server redirects here with ?error=INVALID_TOKEN for a used or expired link.
  const linkError =
    flowMessageForCode(params.get('error')) ??
    (params.get('error') ? flowErrorMessage(new Error(params.get('error')!)) : undefined);

  if (token) {
    return <ChoosePassword token={token} onExpired={() => setParams({ error: 'INVALID_TOKEN' }, { replace: true })} />;
  }
  return <RequestLink initialError={linkError} />;
}
