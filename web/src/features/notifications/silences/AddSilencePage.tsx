// /notifications/silences/add (spec/3 §2): the silence form, prefilled from ?check_id=,
// ?component_id=, ?config_id= or ?canary_id= (the Silence buttons of other screens).
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useCan } from '../../../api/session';
import { Alert } from '../../../ui/alert';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { EditorBackLink } from '../../../ui/editor-page';
import { usePageHeader } from '../../../ui/page-header';
import { SilenceFormFields } from './SilenceFormFields';
import { silenceFormErrors, silencePrefill, type SilenceFormValues } from './silenceForm';
import { useSaveSilence } from './useSaveSilence';

export default function AddSilencePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const canWrite = useCan('notifications', 'write');
  const [values, setValues] = useState<SilenceFormValues>(() => silencePrefill(params));
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? silenceFormErrors(values, new Date()) : {};
  const save = useSaveSilence(undefined, () => navigate('/notifications/silences'));
  usePageHeader({ title: 'Add Silence' });

  return (
    <div className="max-w-3xl space-y-4">
      <EditorBackLink to="/notifications/silences" label="Silences" />
      <Card>
        <form
          noValidate
          className="space-y-4 p-5"
          aria-label="Silence"
          onSubmit={(e) => {
            e.preventDefault();
            setSubmitted(true);
            if (Object.keys(silenceFormErrors(values, new Date())).length === 0) save.mutate(values);
          }}
        >
          {!canWrite && <Alert tone="info">Adding a silence needs write access to notifications.</Alert>}
          <fieldset disabled={!canWrite} className="min-w-0">
            <SilenceFormFields values={values} onChange={setValues} errors={errors} />
          </fieldset>
          <div className="flex justify-end gap-2 border-t border-border pt-4">
            <Button variant="outline" onClick={() => navigate('/notifications/silences')}>
              Cancel
            </Button>
            {canWrite && (
              <Button type="submit" loading={save.isPending}>
                {save.isPending ? 'Saving' : 'Save'}
              </Button>
            )}
          </div>
        </form>
      </Card>
    </div>
  );
}
