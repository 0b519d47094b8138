// For tests that must prove secrets never leak: an API client that keeps every response body, and a
// capture of everything the process writes to the console (console.* and stdout/stderr writes).
import { vi } from 'vitest';
import type { TestUser } from './auth.js';

export interface RecordedAnswer<T = unknown> {
  status: number;
  body: T;
  text: string;
}

export interface RecordingClient {
  /** Every response body received, in order. */
  bodies: string[];
  call<T = Record<string, unknown>>(
    path: string,
    init?: { method?: string; body?: unknown; raw?: string; as?: TestUser; headers?: Record<string, string> },
  ): Promise<RecordedAnswer<T>>;
}

export function recordingClient(baseUrl: () => string, defaultUser: () => TestUser): RecordingClient {
  const bodies: string[] = [];
  return {
    bodies,
    async call<T>(
      path: string,
      init: { method?: string; body?: unknown; raw?: string; as?: TestUser; headers?: Record<string, string> } = {},
    ) {
      const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
      const res = await fetch(`${baseUrl()}${path}`, {
        method: init.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(init.as ?? defaultUser()).headers,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
        body,
      });
      const text = await res.text();
      bodies.push(`${res.status} ${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${text}`);
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the text itself
      }
      return { status: res.status, body: parsed as T, text };
    },
  };
}

/** Records console.* calls and stdout/stderr writes (still passed through) until restore(). */
export function captureOutput(): { text(): string; restore(): void } {
  const chunks: string[] = [];
  const spies = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) => {
    const original = console[m].bind(console);
    return vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
      chunks.push(
        args
          .map((a) =>
            a instanceof Error ? `${a.stack} ${JSON.stringify(a)}` : typeof a === 'string' ? a : JSON.stringify(a),
          )
          .join(' '),
      );
      original(...args);
    });
  });
  const writes = ([process.stdout, process.stderr] as const).map((stream) => {
    const original = stream.write.bind(stream);
    // write's overloads cannot be spelled as one signature; the arguments are passed through as given.
    return vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  });
  return {
    text: () => chunks.join('\n'),
    restore() {
      for (const s of [...spies, ...writes]) s.mockRestore();
    },
  };
}

/** The secrets (of `secrets`) found in `text`, with the place they were found. */
export function leakedSecrets(texts: Record<string, string>, secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const [where, text] of Object.entries(texts))
    for (const s of secrets)
      if (text.includes(s) || text.includes(encodeURIComponent(s))) found.push(`${s} in ${where}`);
  return found;
}
