// Saving a silence from the form: created from now, or updated keeping its start; the list is
// refreshed and the server's message toasted on failure.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../api/client';
import { useSession } from '../../../api/session';
import { toast } from '../../../ui/toast';
import { notificationKeys } from '../keys';
import { notificationsApi } from '../notificationsApi';
import type { SilenceRow } from '../types';
import { silenceRowOfForm, type SilenceFormValues } from './silenceForm';

export function useSaveSilence(silence: SilenceRow | undefined, onSaved: () => void) {
  const session = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (values: SilenceFormValues) => {
      if (silence) {
        // A span chosen while editing starts now; a chosen end date keeps the silence’s start.
        const from = values.duration === 'custom' ? new Date(silence.from) : new Date();
        await notificationsApi.updateSilence(silence.id, silenceRowOfForm(values, from));
      } else {
        await notificationsApi.createSilence(silenceRowOfForm(values, new Date()), session.person.id);
      }
    },
    onSuccess: () => {
      toast.success(silence ? 'Silence updated successfully' : 'Silence added successfully');
      void queryClient.invalidateQueries({ queryKey: notificationKeys.silences() });
      onSaved();
    },
    onError: (e) => toast.error(errorMessage(e)),
  });
}
