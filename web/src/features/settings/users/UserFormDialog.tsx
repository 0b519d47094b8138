// Invite User and Edit User: first name, last name, email and role (spec/3 §5). After an invite
// the dialog shows the returned link with a copy button.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { displayRole, ROLES } from '@opsdeck/common/rbac';
import { inviteUserSchema, splitName, type InviteUser } from '@opsdeck/common/users';
import { ApiError, errorMessage } from '../../../api/client';
import { Alert } from '../../../ui/alert';
import { Button } from '../../../ui/button';
import { CopyField } from '../../../ui/copy-button';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { Field, Input, Select } from '../../../ui/input';
import { toast } from '../../../ui/toast';
import { settingsKeys } from '../keys';
import { usersApi, type User } from './usersApi';

const ROLE_LABELS: Record<string, string> = {
  admin: 'Admin',
  editor: 'Editor',
  commander: 'Commander',
  responder: 'Responder',
  viewer: 'Viewer',
};

export function UserFormDialog({
  open,
  onOpenChange,
  user,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  user?: User;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <UserFormBody user={user} onClose={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function UserFormBody({ user, onClose }: { user?: User; onClose(): void }) {
  const queryClient = useQueryClient();
  const [invite, setInvite] = useState<{ link: string; emailed: boolean; email: string }>();
  const [formError, setFormError] = useState<string>();
  const form = useForm<InviteUser>({
    resolver: zodResolver(inviteUserSchema),
    defaultValues: user
      ? {
          firstName: user.traits?.name?.first ?? splitName(user.name).first,
          lastName: user.traits?.name?.last ?? splitName(user.name).last,
          email: user.email,
          role: displayRole(user.roles),
        }
      : { firstName: '', lastName: '', email: '', role: '' as InviteUser['role'] },
  });
  const errors = form.formState.errors;

  const save = useMutation({
    mutationFn: async (values: InviteUser): Promise<{ link: string; emailed: boolean } | undefined> => {
      if (user) {
        await usersApi.update(user.id, values);
        return undefined;
      }
      return usersApi.invite(values);
    },
    onSuccess: (answer, values) => {
      void queryClient.invalidateQueries({ queryKey: settingsKeys.users() });
      if (user) {
        toast.success(`${values.firstName} ${values.lastName} updated successfully`);
        onClose();
      } else if (answer) {
        setInvite({ link: answer.link, emailed: answer.emailed, email: values.email });
      }
    },
    onError: (e) => {
      // Validation answers name the field: show the message under it.
      if (e instanceof ApiError && e.field && e.field in form.getValues()) {
        form.setError(e.field as keyof InviteUser, { message: e.message });
      } else {
        setFormError(errorMessage(e));
      }
    },
  });

  if (invite) {
    return (
      <DialogContent
        title="Invitation created"
        description={`Send this link to ${invite.email}; it lets them choose a password and sign in.`}
        footer={<Button onClick={onClose}>Done</Button>}
      >
        <div className="space-y-4">
          {invite.emailed && (
            <Alert tone="success">
              <span className="inline-flex items-center gap-1.5">
                <MailCheck className="size-4" aria-hidden /> We also emailed the link.
              </span>
            </Alert>
          )}
          <div className="space-y-1.5" data-testid="invite-link">
            <p className="text-[13px] font-medium">Invite link</p>
            <CopyField value={invite.link} label="Copy link" successMessage="Link copied to clipboard" />
          </div>
        </div>
      </DialogContent>
    );
  }

  const submit = form.handleSubmit((values) => {
    setFormError(undefined);
    save.mutate(values);
  });

  return (
    <DialogContent
      title={user ? 'Edit User' : 'Invite User'}
      description={user ? undefined : 'They get a link to choose a password and sign in.'}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="user-form" loading={save.isPending}>
            {user ? 'Save' : 'Invite'}
          </Button>
        </>
      }
    >
      <form id="user-form" onSubmit={submit} className="grid gap-4 sm:grid-cols-2" noValidate>
        {formError && (
          <Alert tone="error" className="sm:col-span-2">
            {formError}
          </Alert>
        )}
        <Field label="First name" error={errors.firstName?.message}>
          {(id, d) => (
            <Input id={id} aria-describedby={d} invalid={!!errors.firstName} {...form.register('firstName')} />
          )}
        </Field>
        <Field label="Last name" error={errors.lastName?.message}>
          {(id, d) => <Input id={id} aria-describedby={d} invalid={!!errors.lastName} {...form.register('lastName')} />}
        </Field>
        <Field label="Email" error={errors.email?.message} className="sm:col-span-2">
          {(id, d) => (
            <Input id={id} type="email" aria-describedby={d} invalid={!!errors.email} {...form.register('email')} />
          )}
        </Field>
        <Field label="Role" error={errors.role?.message} className="sm:col-span-2">
          {(id, d) => (
            <Select id={id} aria-describedby={d} invalid={!!errors.role} {...form.register('role')}>
              <option value="">Select a role</option>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r] ?? r}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </form>
    </DialogContent>
  );
}
