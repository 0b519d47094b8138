// What a connection test answers (POST /api/connection/test[/{id}]) and the console's word for an untestable type.

/** The 501 of a connection test for a type without a tester, and what the console shows for it. */
export const CONNECTION_TEST_UNSUPPORTED = 'We currently do not support testing this connection type';

/** What a connection-test answer says (POST /api/connection/test[/{id}]): 200 {message: 'ok'}. */
export interface ConnectionTestResult {
  message: string;
  /** What was done, e.g. "SELECT 1 on db.internal:5432/postgres answered in 12 ms". */
  details?: string;
  duration_ms?: number;
}
