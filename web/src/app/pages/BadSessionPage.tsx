// /bad-session?error_code=BAD_SESSION (spec/1 §2): the session cannot be used.
import { UserX } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { StatusPage } from './StatusPage';

export const BAD_SESSION_TEXT =
  'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.';
export const UNKNOWN_ERROR_TEXT = 'Unknown error';

export default function BadSessionPage() {
  const [params] = useSearchParams();
  const bad = params.get('error_code') === 'BAD_SESSION';
  return (
    <StatusPage icon={UserX} tone="danger" title={bad ? BAD_SESSION_TEXT : UNKNOWN_ERROR_TEXT} testId="bad-session" />
  );
}
