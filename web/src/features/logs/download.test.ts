import { describe, expect, it } from 'vitest';
import { downloadFileName, formatLabels, logsToText } from './download';

describe('logs download', () => {
  it('writes one line per log line with its time, message and sorted labels', () => {
    const text = logsToText([
      { id: '1', timestamp: '2024-05-01T10:00:00Z', message: 'started', labels: { pod: 'web-1', app: 'web' } },
      { id: '2', timestamp: '2024-05-01T10:00:01Z', message: 'line one\nline two', labels: {} },
    ]);
    expect(text).toBe(
      '2024-05-01T10:00:00Z started {app="web", pod="web-1"}\n2024-05-01T10:00:01Z line one\\nline two\n',
    );
  });

  it('writes nothing for no lines', () => {
    expect(logsToText([])).toBe('');
    expect(formatLabels(undefined)).toBe('');
  });

  it('names the file after the component, the selector and the time', () => {
    expect(downloadFileName('checkout api', 'app/stdout', new Date('2024-05-01T10:02:03.456Z'))).toBe(
      'logs-checkout-api-app-stdout-20240501-100203.log',
    );
    expect(downloadFileName(undefined, undefined, new Date('2024-05-01T10:02:03Z'))).toBe('logs-20240501-100203.log');
  });
});
