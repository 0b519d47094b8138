// `opsdeck apply -f file.yaml`: sends each resource of a file to the running server's API for its
// kind and prints what was applied, or each problem as file:line:column: message.
import fs from 'node:fs';
import { parseAllDocuments } from 'yaml';

/** Where each kind is applied. */
const ENDPOINTS: Record<string, string> = {
  Canary: '/api/canary',
  Topology: '/api/topology',
  ScrapeConfig: '/api/catalog',
  IncidentRule: '/api/incidents/rules',
  Playbook: '/api/playbook',
  Notification: '/api/notification',
  NotificationSilence: '/api/notification/silence',
  LoggingBackend: '/api/logging_backends',
  StatusPage: '/api/status-page',
  MaintenanceWindow: '/api/maintenance-window',
};

interface ApiProblem {
  message: string;
  line?: number;
  column?: number;
}

export async function applyFile(file: string, server: string, token: string | undefined): Promise<number> {
  let text: string;
  try {
    text = file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(file, 'utf8');
  } catch (e) {
    console.error(`opsdeck apply: cannot read ${file}: ${(e as Error).message}`);
    return 1;
  }
  if (!token) {
    console.error(
      'opsdeck apply: an access token is needed: --token <token> or OPSDECK_TOKEN (Settings → Users, or POST /api/tokens)',
    );
    return 2;
  }
  const docs = parseAllDocuments(text);
  const list = Array.isArray(docs) ? docs : [];
  let failed = 0;
  for (const doc of list) {
    if (doc.contents === null) continue;
    const start = doc.range[0];
    const source = text.slice(start, doc.range[2]);
    // Lines before this document, to report positions in the whole file.
    const lineOffset = text.slice(0, start).split('\n').length - 1;
    const kind = (doc.toJS() as { kind?: unknown } | null)?.kind;
    const endpoint = typeof kind === 'string' ? ENDPOINTS[kind] : undefined;
    if (!endpoint) {
      console.error(
        `${file}:${lineOffset + 1}:1: kind ${JSON.stringify(kind ?? null)} cannot be applied (supported: ${Object.keys(ENDPOINTS).join(', ')})`,
      );
      failed++;
      continue;
    }
    let res: Response;
    try {
      res = await fetch(new URL(endpoint, server), {
        method: 'POST',
        // Resources applied from a file stay read-only in the console (kinds that keep a source).
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/yaml',
          'x-opsdeck-source': 'ConfigFile',
        },
        body: source,
      });
    } catch (e) {
      console.error(
        `opsdeck apply: cannot reach ${server}: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`,
      );
      return 1;
    }
    const body = (await res.json().catch(() => ({}))) as {
      error?: string;
      errors?: ApiProblem[];
      applied?: { name: string; namespace: string; created: boolean; checks?: unknown[] }[];
    };
    if (!res.ok) {
      failed++;
      const problems = body.errors?.length ? body.errors : [{ message: body.error ?? `HTTP ${res.status}` }];
      for (const p of problems) {
        const where = p.line ? `${file}:${lineOffset + p.line}:${p.column ?? 1}` : file;
        console.error(`${where}: ${p.message.replace(/ \(line \d+, column \d+\)$/, '')}`);
      }
      continue;
    }
    for (const a of body.applied ?? []) {
      const checks = a.checks ? ` (${a.checks.length} check${a.checks.length === 1 ? '' : 's'})` : '';
      console.log(
        `${String(kind).toLowerCase()}/${a.namespace}/${a.name} ${a.created ? 'created' : 'configured'}${checks}`,
      );
    }
  }
  return failed ? 1 : 0;
}
