// LISTEN on one channel over a PostgreSQL connection of its own (not a pooled one), reconnecting
// when it drops. sync() is a barrier: it resolves once every notification committed before it was
// called has been handed to notify() (the server sends pending notifications before it answers a
// query on the listening connection, and the commit that notifies signals listeners before the
// writer's COMMIT returns). Concurrent callers share one round trip: an empty query, which PostgreSQL
// answers without parsing or planning anything.
import type { Client } from 'pg';

export interface ListenHandlers {
  notify(payload: string): void;
  /** The connection was lost or re-established: notifications in between were missed. */
  lost(): void;
}

export interface Listener {
  /** LISTEN is in place: notifications arrive (until lost() is called). */
  readonly ready: boolean;
  /** Resolves when every notification committed before the call was delivered; rejects when not ready. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

const SYNC_TIMEOUT_MS = 2_000;
const RETRY_MS = [250, 1_000, 5_000];

export function pgListener(
  newClient: () => Client,
  channel: string,
  handlers: ListenHandlers,
  warn: (message: string) => void,
): Listener {
  let client: Client | undefined;
  let ready = false;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  // The barrier in flight, and the one queued behind it (sent once the first is answered).
  let inflight: Promise<void> | undefined;
  let queued: Promise<void> | undefined;

  const drop = (c: Client, why: string) => {
    if (client !== c) return;
    client = undefined;
    inflight = queued = undefined;
    if (ready) warn(`LISTEN ${channel}: connection lost (${why}); reconnecting`);
    ready = false;
    handlers.lost();
    c.end().catch(() => undefined);
    if (!closed) retry = setTimeout(connect, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]);
  };

  async function connect() {
    retry = undefined;
    if (closed) return;
    const c = newClient();
    client = c;
    c.on('notification', (n) => {
      if (n.channel === channel) handlers.notify(n.payload ?? '');
    });
    c.on('error', (e) => drop(c, e.message));
    c.on('end', () => drop(c, 'ended'));
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      if (client !== c || closed) return;
      failures = 0;
      // Anything remembered before this point may have missed a notification.
      handlers.lost();
      ready = true;
    } catch (e) {
      drop(c, (e as Error).message);
    }
  }

  const roundTrip = (c: Client) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`LISTEN ${channel}: no answer in ${SYNC_TIMEOUT_MS} ms`)),
        SYNC_TIMEOUT_MS,
      );
      c.query('').then(
        () => {
          clearTimeout(timer);
          resolve();
        },
        (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });

  const send = (): Promise<void> => {
    const c = client;
    if (!ready || !c) return Promise.reject(new Error(`LISTEN ${channel}: not connected`));
    const p = roundTrip(c).finally(() => {
      if (inflight === p) inflight = undefined;
    });
    inflight = p;
    return p;
  };

  void connect();

  return {
    get ready() {
      return ready;
    },
    sync() {
      if (!inflight) return send();
      // A barrier already sent may have left before this call: wait for the next one.
      queued ??= inflight
        .catch(() => undefined)
        .then(() => {
          queued = undefined;
          return send();
        });
      return queued;
    },
    async close() {
      closed = true;
      ready = false;
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
