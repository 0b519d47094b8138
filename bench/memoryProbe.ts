// Where a server process's memory is, for `health-summary-memory`: its RSS by kind of mapping
// (/proc/PID/smaps), and a full garbage collection asked for through the inspector (the server
// started with --inspect on loopback), so that what a collection would give back can be told from
// what stays.
import fs from 'node:fs';
import WebSocket from 'ws';

/** RSS (bytes) by kind of mapping: malloc's main heap, other anonymous memory, files, the rest. */
export function rssByKind(pid: number | undefined): Record<'heap' | 'anonymous' | 'files' | 'other', number> {
  const out = { heap: 0, anonymous: 0, files: 0, other: 0 };
  if (pid === undefined) return out;
  let kind: keyof typeof out = 'other';
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1]!;
      kind = name === '[heap]' ? 'heap' : name === '' ? 'anonymous' : name.startsWith('/') ? 'files' : 'other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]) * 1024;
  }
  return out;
}

/** Asks the process listening for the inspector on `port` for a full collection (HeapProfiler.collectGarbage). */
export async function collectGarbage(port: number): Promise<void> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' })));
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as { id?: number; error?: { message: string } };
      if (msg.id !== 1) return;
      ws.close();
      if (msg.error) reject(new Error(msg.error.message));
      else resolve();
    });
  });
}
