// /profile-settings (from the user menu): change name, email and password; turn two-factor
// authentication (TOTP) on — QR code of the otpauth URI, the secret, backup codes, a code to
// confirm — or off. Messages clear after 10 seconds (spec/3 §9).
import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorMessage } from '../../api/client';
import { useRefreshSession, useSession } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { CopyField } from '../../ui/copy-button';
import { Field, Input } from '../../ui/input';
import { authApi, totpSecret } from './authApi';
import { PasswordFields } from './PasswordFields';
import { emailField, newPasswordSchema, REQUIRED } from './schemas';

const MESSAGE_MS = 10_000;

type Message = { tone: 'success' | 'error'; text: string } | undefined;

/** A message that disappears after 10 seconds. */
function useTimedMessage(): [Message, (m: Message) => void] {
  const [message, setMessage] = useState<Message>();
  useEffect(() => {
    if (!message) return;
    const t = setTimeout(() => setMessage(undefined), MESSAGE_MS);
    return () => clearTimeout(t);
  }, [message]);
  return [message, setMessage];
}

function Section({
  title,
  description,
  children,
  actions,
}: {
  title: string;
  description: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader title={title} description={description} actions={actions} />
      <div className="px-5 py-5">{children}</div>
    </Card>
  );
}

function MessageLine({ message }: { message: Message }) {
  return message ? (
    <Alert tone={message.tone} className="mt-4">
      {message.text}
    </Alert>
  ) : null;
}

function NameForm() {
  const session = useSession();
  const refresh = useRefreshSession();
  const [message, setMessage] = useTimedMessage();
  const form = useForm<{ name: string }>({
    resolver: zodResolver(z.object({ name: z.string().trim().min(1, REQUIRED) })),
    defaultValues: { name: session.person.name },
  });
  const submit = form.handleSubmit(async ({ name }) => {
    try {
      await authApi.updateName(name);
      await refresh();
      setMessage({ tone: 'success', text: 'Your name was updated.' });
    } catch (e) {
      setMessage({ tone: 'error', text: errorMessage(e) });
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field label="Name" error={form.formState.errors.name?.message} className="flex-1">
          {(id, d) => <Input id={id} autoComplete="name" aria-describedby={d} {...form.register('name')} />}
        </Field>
        <Button type="submit" loading={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
          Save name
        </Button>
      </div>
      <MessageLine message={message} />
    </form>
  );
}

function EmailForm() {
  const session = useSession();
  const [message, setMessage] = useTimedMessage();
  const form = useForm<{ email: string }>({
    resolver: zodResolver(z.object({ email: emailField })),
    defaultValues: { email: '' },
  });
  const submit = form.handleSubmit(async ({ email }) => {
    try {
      await authApi.changeEmail(email);
      form.reset({ email: '' });
      setMessage({ tone: 'success', text: `Check ${email} for a link to confirm the change.` });
    } catch (e) {
      setMessage({ tone: 'error', text: errorMessage(e) });
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <p className="mb-3 text-[13px] text-muted">
        Current email: <span className="font-medium text-foreground">{session.person.email}</span>
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field label="New email" error={form.formState.errors.email?.message} className="flex-1">
          {(id, d) => (
            <Input id={id} type="email" autoComplete="email" aria-describedby={d} {...form.register('email')} />
          )}
        </Field>
        <Button type="submit" variant="outline" loading={form.formState.isSubmitting}>
          Change email
        </Button>
      </div>
      <MessageLine message={message} />
    </form>
  );
}

const passwordChangeSchema = z.object({ current: z.string().min(1, REQUIRED) }).and(newPasswordSchema);

function PasswordForm() {
  const [message, setMessage] = useTimedMessage();
  const form = useForm<{ current: string; password: string; confirm: string }>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: { current: '', password: '', confirm: '' },
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async ({ current, password }) => {
    try {
      await authApi.changePassword(current, password);
      form.reset();
      setMessage({ tone: 'success', text: 'Your password was changed. Other sessions were signed out.' });
    } catch (e) {
      setMessage({ tone: 'error', text: errorMessage(e) });
    }
  });
  return (
    <form onSubmit={submit} className="grid max-w-md gap-4" noValidate>
      <Field label="Current password" error={errors.current?.message}>
        {(id, d) => (
          <Input
            id={id}
            type="password"
            autoComplete="current-password"
            aria-describedby={d}
            {...form.register('current')}
          />
        )}
      </Field>
      <PasswordFields
        label="New password"
        password={form.register('password')}
        confirm={form.register('confirm')}
        errors={{ password: errors.password?.message, confirm: errors.confirm?.message }}
      />
      <div>
        <Button type="submit" variant="outline" loading={form.formState.isSubmitting}>
          Change password
        </Button>
      </div>
      <MessageLine message={message} />
    </form>
  );
}

function QrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let cancelled = false;
    // The QR library is only needed here: load it with this step.
    void import('qrcode').then((qr) =>
      qr.toDataURL(uri, { margin: 1, width: 192, errorCorrectionLevel: 'M' }).then((url) => !cancelled && setSrc(url)),
    );
    return () => {
      cancelled = true;
    };
  }, [uri]);
  return (
    <div className="flex size-[200px] items-center justify-center rounded-lg border border-border bg-white p-1">
      {src ? (
        <img src={src} alt="QR code for your authenticator app" width={192} height={192} data-testid="totp-qr" />
      ) : null}
    </div>
  );
}

function TwoFactor() {
  const session = useSession();
  const refresh = useRefreshSession();
  const [message, setMessage] = useTimedMessage();
  const [mode, setMode] = useState<'idle' | 'enable-password' | 'confirm' | 'disable-password'>('idle');
  const [setup, setSetup] = useState<{ totpURI: string; backupCodes: string[] }>();
  const passwordForm = useForm<{ password: string }>({
    resolver: zodResolver(z.object({ password: z.string().min(1, REQUIRED) })),
    defaultValues: { password: '' },
  });
  const codeForm = useForm<{ code: string }>({
    resolver: zodResolver(
      z.object({
        code: z
          .string()
          .trim()
          .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
      }),
    ),
    defaultValues: { code: '' },
  });
  const enabled = session.twoFactorEnabled;

  const submitPassword = passwordForm.handleSubmit(async ({ password }) => {
    try {
      if (mode === 'enable-password') {
        setSetup(await authApi.enableTwoFactor(password));
        setMode('confirm');
      } else {
        await authApi.disableTwoFactor(password);
        await refresh();
        setMode('idle');
        setMessage({ tone: 'success', text: 'Two-factor authentication is off.' });
      }
      passwordForm.reset();
    } catch (e) {
      setMessage({ tone: 'error', text: errorMessage(e) });
    }
  });

  const submitCode = codeForm.handleSubmit(async ({ code }) => {
    try {
      await authApi.confirmTwoFactor(code);
      await refresh();
      setMode('idle');
      setSetup(undefined);
      codeForm.reset();
      setMessage({ tone: 'success', text: 'Two-factor authentication is on.' });
    } catch (e) {
      setMessage({ tone: 'error', text: errorMessage(e) });
    }
  });

  const secret = setup ? totpSecret(setup.totpURI) : undefined;

  return (
    <Section
      title="Two-factor authentication"
      description="Ask for a code from an authenticator app when you sign in."
      actions={
        enabled ? (
          <Badge tone="success">
            <ShieldCheck className="size-3.5" aria-hidden /> Enabled
          </Badge>
        ) : (
          <Badge>
            <ShieldOff className="size-3.5" aria-hidden /> Disabled
          </Badge>
        )
      }
    >
      {mode === 'idle' && (
        <Button
          variant={enabled ? 'outline' : 'primary'}
          onClick={() => setMode(enabled ? 'disable-password' : 'enable-password')}
        >
          {enabled ? 'Disable two-factor authentication' : 'Enable two-factor authentication'}
        </Button>
      )}

      {(mode === 'enable-password' || mode === 'disable-password') && (
        <form onSubmit={submitPassword} className="flex max-w-md flex-col gap-3" noValidate>
          <Field label="Confirm with your password" error={passwordForm.formState.errors.password?.message}>
            {(id, d) => (
              <Input
                id={id}
                type="password"
                autoComplete="current-password"
                autoFocus
                aria-describedby={d}
                {...passwordForm.register('password')}
              />
            )}
          </Field>
          <div className="flex gap-2">
            <Button
              type="submit"
              variant={mode === 'disable-password' ? 'danger' : 'primary'}
              loading={passwordForm.formState.isSubmitting}
            >
              {mode === 'disable-password' ? 'Disable' : 'Continue'}
            </Button>
            <Button variant="ghost" onClick={() => setMode('idle')}>
              Cancel
            </Button>
          </div>
        </form>
      )}

      {mode === 'confirm' && setup && (
        <div className="grid gap-6 md:grid-cols-[auto_1fr]">
          <QrCode uri={setup.totpURI} />
          <div className="min-w-0 space-y-4">
            <div className="space-y-1.5">
              <p className="text-[13px] font-medium">
                1. Scan the QR code with your authenticator app, or enter this secret:
              </p>
              {secret && <CopyField value={secret} label="Copy secret" />}
            </div>
            {setup.backupCodes.length > 0 && (
              <div className="space-y-1.5">
                <p className="text-[13px] font-medium">2. Keep these backup codes somewhere safe:</p>
                <CopyField value={setup.backupCodes.join('\n')} label="Copy backup codes" />
              </div>
            )}
            <form onSubmit={submitCode} className="flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
              <Field
                label="3. Enter the code the app shows"
                error={codeForm.formState.errors.code?.message}
                className="sm:w-64"
              >
                {(id, d) => (
                  <Input
                    id={id}
                    inputMode="numeric"
                    maxLength={6}
                    autoComplete="one-time-code"
                    aria-describedby={d}
                    className="font-mono tracking-widest"
                    {...codeForm.register('code')}
                  />
                )}
              </Field>
              <Button type="submit" loading={codeForm.formState.isSubmitting}>
                Turn on
              </Button>
            </form>
          </div>
        </div>
      )}
      <MessageLine message={message} />
    </Section>
  );
}

export default function ProfileSettingsPage() {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Section title="Profile" description="How your name appears to your team.">
        <NameForm />
      </Section>
      <Section
        title="Email"
        description="Where sign-in links and notifications go. A change is confirmed from the new address."
      >
        <EmailForm />
      </Section>
      <Section title="Password" description="Changing it signs out your other sessions.">
        <PasswordForm />
      </Section>
      <TwoFactor />
    </div>
  );
}
