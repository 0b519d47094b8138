// /registration: from an invite link (?invite=<token>) the invited user sees their email and sets
// a password, then signs in; without an invite, an open registration form only when the server
// allows registration (GET /api/auth/config).
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { useAuthConfig } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/input';
import { Skeleton } from '../../ui/skeleton';
import { toast } from '../../ui/toast';
import { AuthCard } from './AuthCard';
import { authApi } from './authApi';
import { flowErrorMessage } from './flowErrors';
import { PasswordFields } from './PasswordFields';
import { emailField, newPasswordSchema, password, REQUIRED } from './schemas';

const signInLink = (
  <>
    Already have an account?{' '}
    <Link to="/login" className="font-medium text-primary hover:underline">
      Sign in
    </Link>
  </>
);

function AcceptInvite({ token }: { token: string }) {
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const invite = useQuery({
    queryKey: ['auth', 'invite', token],
    queryFn: ({ signal }) => authApi.getInvite(token, signal),
    retry: false,
    staleTime: Infinity,
    meta: { silent: true }, // the page explains a bad invite itself
  });
  const form = useForm<{ password: string; confirm: string }>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirm: '' },
  });

  const submit = form.handleSubmit(async ({ password: pw }) => {
    setError(undefined);
    try {
      const { email } = await authApi.acceptInvite(token, pw);
      toast.success('Your account is ready. Sign in with your new password.');
      navigate(`/login?username=${encodeURIComponent(email ?? invite.data?.email ?? '')}`, { replace: true });
    } catch (e) {
      setError(flowErrorMessage(e));
    }
  });

  if (invite.isPending) {
    return (
      <AuthCard title="Accept your invitation">
        <div className="space-y-3">
          <Skeleton className="h-9" />
          <Skeleton className="h-9" />
        </div>
      </AuthCard>
    );
  }
  if (invite.isError) {
    return (
      <AuthCard title="Accept your invitation" footer={signInLink}>
        <Alert tone="error">{flowErrorMessage(invite.error)} Ask an administrator for a new invitation.</Alert>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Accept your invitation"
      subtitle={
        invite.data.name
          ? `Welcome, ${invite.data.name}. Choose a password to finish setting up your account.`
          : 'Choose a password to finish setting up your account.'
      }
      footer={signInLink}
    >
      {error && (
        <Alert tone="error" className="mb-4">
          {error}
        </Alert>
      )}
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Email">
          {(id) => <Input id={id} value={invite.data.email} readOnly data-testid="invite-email" />}
        </Field>
        <PasswordFields
          password={form.register('password')}
          confirm={form.register('confirm')}
          errors={{
            password: form.formState.errors.password?.message,
            confirm: form.formState.errors.confirm?.message,
          }}
        />
        <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}

const signUpSchema = z
  .object({
    name: z.string().trim().min(1, REQUIRED),
    email: emailField,
    password,
    confirm: z.string().min(1, REQUIRED),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Passwords do not match' });

function OpenRegistration() {
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const form = useForm<z.infer<typeof signUpSchema>>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { name: '', email: '', password: '', confirm: '' },
  });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async ({ name, email, password: pw }) => {
    setError(undefined);
    try {
      await authApi.signUp(name, email, pw);
      toast.success('Account created. Sign in to continue.');
      navigate(`/login?username=${encodeURIComponent(email)}`, { replace: true });
    } catch (e) {
      setError(flowErrorMessage(e));
    }
  });

  return (
    <AuthCard title="Create your account" subtitle="Start using Opsdeck." footer={signInLink}>
      {error && (
        <Alert tone="error" className="mb-4">
          {error}
        </Alert>
      )}
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Name" error={errors.name?.message}>
          {(id, d) => (
            <Input
              id={id}
              autoComplete="name"
              aria-describedby={d}
              invalid={!!errors.name}
              {...form.register('name')}
            />
          )}
        </Field>
        <Field label="Email" error={errors.email?.message}>
          {(id, d) => (
            <Input
              id={id}
              type="email"
              autoComplete="email"
              aria-describedby={d}
              invalid={!!errors.email}
              {...form.register('email')}
            />
          )}
        </Field>
        <PasswordFields
          password={form.register('password')}
          confirm={form.register('confirm')}
          errors={{ password: errors.password?.message, confirm: errors.confirm?.message }}
        />
        <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
          <UserPlus className="size-4" aria-hidden />
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}

export default function RegistrationPage() {
  const [params] = useSearchParams();
  const config = useAuthConfig();
  const invite = params.get('invite');

  if (invite) return <AcceptInvite token={invite} />;
  if (config.isPending) {
    return (
      <AuthCard title="Create your account">
        <Skeleton className="h-9" />
      </AuthCard>
    );
  }
  if (config.data?.registration) return <OpenRegistration />;
  return (
    <AuthCard title="Registration is by invitation" footer={signInLink}>
      <p className="text-sm text-muted">
        This Opsdeck server does not allow open registration. Ask an administrator to invite you; the invitation link
        brings you back here to choose a password.
      </p>
    </AuthCard>
  );
}
