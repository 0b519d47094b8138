// /login (spec/1 §2, spec/3 §2, §8): email and password, a second step for the TOTP code when the
// server answers twoFactorRedirect, "Sign in with <provider>" when OIDC is on, and return_to
// honoured only for paths on this origin. Query: return_to, aal (aal2 opens the code step),
// refresh (sign in again even with a session), username (prefills the email).
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound, LogIn, ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { useAuthConfig, useOptionalWhoami } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/input';
import { AuthCard } from './AuthCard';
import { authApi } from './authApi';
import { flowErrorMessage, flowMessageForCode } from './flowErrors';
import { safeReturnTo } from './returnTo';
import { REQUIRED } from './schemas';

const credentialsSchema = z.object({
  email: z.string().trim().min(1, REQUIRED),
  password: z.string().min(1, REQUIRED),
});
const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, REQUIRED)
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
});

export default function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useAuthConfig();
  const session = useOptionalWhoami();

  const returnTo = safeReturnTo(params.get('return_to'), window.location.origin);
  const destination = returnTo.ok ? returnTo.path : '/';
  const refresh = params.get('refresh') === 'true';
  const [step, setStep] = useState<'password' | 'code'>(params.get('aal') === 'aal2' ? 'code' : 'password');
  const [error, setError] = useState<string | undefined>(() => flowMessageForCode(params.get('error')));

  // Already signed in: go where the user was headed (unless asked to sign in again).
  useEffect(() => {
    if (session.data && !refresh && step === 'password') navigate(destination, { replace: true });
  }, [session.data, refresh, step, destination, navigate]);

  const done = () => {
    queryClient.clear();
    navigate(destination, { replace: true });
  };

  const credentials = useForm<z.infer<typeof credentialsSchema>>({
    resolver: zodResolver(credentialsSchema),
    defaultValues: { email: params.get('username') ?? '', password: '' },
  });
  const code = useForm<z.infer<typeof codeSchema>>({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } });

  const signIn = credentials.handleSubmit(async ({ email, password }) => {
    setError(undefined);
    try {
      const answer = await authApi.signIn(email, password);
      if (answer?.twoFactorRedirect) {
        setStep('code');
        return;
      }
      done();
    } catch (e) {
      setError(flowErrorMessage(e));
    }
  });

  const verify = code.handleSubmit(async ({ code: value }) => {
    setError(undefined);
    try {
      await authApi.verifyTotp(value);
      done();
    } catch (e) {
      const message = flowErrorMessage(e);
      setError(message);
      code.reset({ code: '' });
    }
  });

  const oidc = async () => {
    setError(undefined);
    try {
      const { url } = await authApi.signInOidc(destination);
      window.location.assign(url);
    } catch (e) {
      setError(flowErrorMessage(e));
    }
  };

  const banner = (
    <>
      {!returnTo.ok && (
        <Alert tone="error" className="mb-4">
          {returnTo.error}
        </Alert>
      )}
      {error && (
        <Alert tone="error" className="mb-4">
          <span data-testid="login-error">{error}</span>
        </Alert>
      )}
    </>
  );

  if (step === 'code') {
    return (
      <AuthCard
        title="Two-factor authentication"
        subtitle="Enter the 6-digit code from your authenticator app."
        footer={
          <button
            type="button"
            className="cursor-pointer font-medium text-primary hover:underline"
            onClick={() => {
              setStep('password');
              setError(undefined);
            }}
          >
            Use a different account
          </button>
        }
      >
        {banner}
        <form onSubmit={verify} className="space-y-4" noValidate>
          <Field label="Authentication code" error={code.formState.errors.code?.message}>
            {(id, describedBy) => (
              <Input
                id={id}
                aria-describedby={describedBy}
                autoFocus
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={6}
                placeholder="123456"
                className="text-center font-mono text-lg tracking-[0.4em]"
                invalid={!!code.formState.errors.code}
                {...code.register('code')}
              />
            )}
          </Field>
          <Button type="submit" className="w-full" loading={code.formState.isSubmitting}>
            {!code.formState.isSubmitting && <ShieldCheck className="size-4" aria-hidden />}
            Verify
          </Button>
        </form>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Sign in to Opsdeck"
      subtitle="Welcome back. Sign in with your work account."
      footer={
        config.data?.registration ? (
          <>
            New here?{' '}
            <Link to="/registration" className="font-medium text-primary hover:underline">
              Create an account
            </Link>
          </>
        ) : (
          'Need access? Ask an administrator for an invitation.'
        )
      }
    >
      {banner}
      {config.data?.oidc.enabled && (
        <>
          <Button variant="outline" className="w-full" onClick={oidc}>
            <KeyRound className="size-4" aria-hidden />
            Sign in with {config.data.oidc.name}
          </Button>
          <div className="my-5 flex items-center gap-3 text-[12px] uppercase tracking-wide text-subtle">
            <span className="h-px flex-1 bg-border" /> or <span className="h-px flex-1 bg-border" />
          </div>
        </>
      )}
      <form onSubmit={signIn} className="space-y-4" noValidate>
        <Field label="Email" error={credentials.formState.errors.email?.message}>
          {(id, describedBy) => (
            <Input
              id={id}
              type="email"
              autoComplete="username"
              autoFocus
              aria-describedby={describedBy}
              invalid={!!credentials.formState.errors.email}
              {...credentials.register('email')}
            />
          )}
        </Field>
        <Field label="Password" error={credentials.formState.errors.password?.message}>
          {(id, describedBy) => (
            <Input
              id={id}
              type="password"
              autoComplete="current-password"
              aria-describedby={describedBy}
              invalid={!!credentials.formState.errors.password}
              {...credentials.register('password')}
            />
          )}
        </Field>
        <div className="-mt-1 text-right">
          <Link to="/recovery" className="text-[12.5px] text-primary hover:underline">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" className="w-full" loading={credentials.formState.isSubmitting}>
          {!credentials.formState.isSubmitting && <LogIn className="size-4" aria-hidden />}
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}
