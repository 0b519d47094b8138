// A log line's time as the table shows it: local date and time to the millisecond.
import { formatLocalDateTime } from '@opsdeck/common/timeRange';

export function formatLogTime(timestamp: string): string {
  const d = new Date(timestamp);
  if (Number.isNaN(d.getTime())) return timestamp;
  return `${formatLocalDateTime(d)}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}
