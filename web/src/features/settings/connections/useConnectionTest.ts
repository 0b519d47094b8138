// Runs a connection test (a form's values or a saved row) and toasts its outcome (spec/3 §8).
import { useMutation } from '@tanstack/react-query';
import type { ConnectionFieldError, ConnectionTestResult } from '@opsdeck/common/connections';
import { toast } from '../../../ui/toast';
import {
  fieldErrorsOf,
  isTestSuccess,
  TEST_FAILED,
  TEST_SUCCEEDED,
  testFailureMessage,
  type TestOutcome,
} from './connectionTest';

type TestCall = () => Promise<{ status: number; data: ConnectionTestResult | undefined }>;

export function useConnectionTest(onFieldErrors?: (errors: ConnectionFieldError[]) => void) {
  return useMutation({
    mutationFn: async (call: TestCall): Promise<TestOutcome> => {
      try {
        const res = await call();
        if (isTestSuccess(res.status, res.data)) return { ok: true, details: res.data?.details };
        return { ok: false, message: res.data?.message || TEST_FAILED };
      } catch (e) {
        const fields = fieldErrorsOf(e);
        if (fields.length) onFieldErrors?.(fields);
        return { ok: false, message: testFailureMessage(e) };
      }
    },
    onSuccess: (outcome) => {
      if (outcome.ok) toast.success(TEST_SUCCEEDED);
      else toast.error(outcome.message);
    },
  });
}
