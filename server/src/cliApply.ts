// `opsdeck apply -f file.yaml`: sends each resource of a file to the running server's API for its
// kind and prints what was applied, or each problem as file:line:column: message.
import fs from 'node:fs';
import { parseAllDocuments } from 'yaml';

/** Where each kind is applied. */
export const ENDPOINTS: Record<string, string> = {
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

/** One resource the server applied: where it went, and its id there. */
export interface AppliedEntry {
  kind: string;
  endpoint: string;
  id?: string;
  name: string;
  namespace: string;
  created: boolean;
}

export interface ApplyReport {
  applied: AppliedEntry[];
  /** Documents refused (each problem was reported through `log.error`). */
  failed: number;
  /** The server could not be reached: nothing after the first unreachable document was sent. */
  unreachable?: boolean;
}

export interface ApplyLog {
  info(line: string): void;
  error(line: string): void;
}

const CONSOLE_LOG: ApplyLog = { info: (l) => console.log(l), error: (l) => console.error(l) };

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
  const report = await applyText(text, file, server, token);
  return report.failed || report.unreachable ? 1 : 0;
}

/**
 * Sends each document of `text` (read from `file`, named in messages) to the server's endpoint for
 * its kind; logs what was applied, and each problem as file:line:column: message.
 */
export async function applyText(
  text: string,
  file: string,
  server: string,
  token: string,
  log: ApplyLog = CONSOLE_LOG,
): Promise<ApplyReport> {
  const report: ApplyReport = { applied: [], failed: 0 };
  const docs = parseAllDocuments(text);
  const list = Array.isArray(docs) ? docs : [];
  for (const doc of list) {
    if (doc.contents === null) continue;
    const start = doc.range[0];
    const source = text.slice(start, doc.range[2]);
    // Lines before this document, to report positions in the whole file.
    const lineOffset = text.slice(0, start).split('\n').length - 1;
    const kind = (doc.toJS() as { kind?: unknown } | null)?.kind;
    const endpoint = typeof kind === 'string' ? ENDPOINTS[kind] : undefined;
    if (!endpoint) {
      log.error(
        `${file}:${lineOffset + 1}:1: kind ${JSON.stringify(kind ?? null)} cannot be applied (supported: ${Object.keys(ENDPOINTS).join(', ')})`,
      );
      report.failed++;
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
      log.error(
        `opsdeck apply: cannot reach ${server}: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`,
      );
      report.unreachable = true;
      return report;
    }
    const body = (await res.json().catch(() => ({}))) as {
      error?: string;
      errors?: ApiProblem[];
      applied?: { id?: string; name: string; namespace: string; created: boolean; checks?: unknown[] }[];
    };
    if (!res.ok) {
      report.failed++;
      const problems = body.errors?.length ? body.errors : [{ message: body.error ?? `HTTP ${res.status}` }];
      for (const p of problems) {
        const where = p.line ? `${file}:${lineOffset + p.line}:${p.column ?? 1}` : file;
        log.error(`${where}: ${p.message.replace(/ \(line \d+, column \d+\)$/, '')}`);
      }
      continue;
    }
    for (const a of body.applied ?? []) {
      report.applied.push({
        kind: String(kind),
        endpoint,
        id: a.id,
        name: a.name,
        namespace: a.namespace,
        created: a.created,
      });
      const checks = a.checks ? ` (${a.checks.length} check${a.checks.length === 1 ? '' : 's'})` : '';
      log.info(
        `${String(kind).toLowerCase()}/${a.namespace}/${a.name} ${a.created ? 'created' : 'configured'}${checks}`,
      );
    }
  }
  return report;
}
