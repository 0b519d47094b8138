// The demo Topology (labelled demo, seeded with the demo data): Opsdeck describing itself, so the
// topology page of a new install is never empty. Its checks are real: inline HTTP/TCP checks
// against this server's own port, and the demo canary's checks picked by a selector; its
// properties are read from /api/about by lookups on every run.
import type { AppContext } from '../app.js';
import { parseDocuments } from '../resources/yaml.js';
import { applyTopology } from './store.js';
import { parseTopology } from './topology.js';

export const DEMO_TOPOLOGY_NAME = 'opsdeck-demo-topology';

/** A property read from /api/about by a lookup (a CEL expression over its JSON). */
const aboutProperty = (publicUrl: string, name: string, expr: string, extra = '') => `    - name: ${name}${extra}
      lookup:
        http:
          - name: about-${name}
            url: ${publicUrl}/api/about
            display:
              expr: "${expr}"`;

export function demoTopologyYaml(publicUrl: string, port: number): string {
  return `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata:
  name: ${DEMO_TOPOLOGY_NAME}
  namespace: demo
  labels:
    demo: "true"
    app: opsdeck
spec:
  schedule: "@every 1m"
  type: Application
  icon: server
  text: Opsdeck (demo data)
  properties:
${aboutProperty(publicUrl, 'version', 'json.version', '\n      headline: true')}
${aboutProperty(publicUrl, 'uptime', 'json.uptime_seconds', '\n      unit: seconds')}
  components:
    - name: Web console
      type: WebApp
      icon: browser
      text: The React console served by this server
      checks:
        - inline:
            schedule: "@every 1m"
            http:
              - name: opsdeck-demo-web-console
                description: The console's page is served (503 until the web console is built) (demo)
                url: ${publicUrl}/
                responseCodes: [200]
                thresholdMillis: 2000
    - name: API server
      type: API
      icon: api
      text: The HTTP API on port ${port}
      properties:
        - name: port
          value: ${port}
${aboutProperty(publicUrl, 'version', 'json.version', '\n      headline: true').replace(/^ {4}/gm, '        ')}
      checks:
        - inline:
            schedule: "@every 1m"
            http:
              - name: opsdeck-demo-api
                description: The API answers with its version (demo)
                url: ${publicUrl}/api/about
                responseCodes: [200]
                thresholdMillis: 1000
                test:
                  expr: "has(json.version)"
    - name: Database
      type: Database
      icon: database
      text: Where every resource, result and event is kept
      properties:
${aboutProperty(publicUrl, 'kind', 'json.database', '\n      headline: true').replace(/^ {4}/gm, '        ')}
      checks:
        - inline:
            schedule: "@every 1m"
            http:
              - name: opsdeck-demo-database
                description: The API reads the database kind from its open connection (demo)
                url: ${publicUrl}/api/about
                test:
                  expr: "json.database in ['pglite', 'postgres']"
    - name: Engines
      type: Engines
      icon: cog
      text: In-process workers coordinated through the database
      components:
        - name: Health engine
          type: Engine
          text: Runs the health checks; healthy when the demo canary's checks pass
          checks:
            - selector:
                name: opsdeck-*
                labelSelector: app=opsdeck
        - name: Topology engine
          type: Engine
          text: Builds this tree every minute; its lookups read /api/about
          checks:
            - inline:
                schedule: "@every 1m"
                tcp:
                  - name: opsdeck-demo-topology-engine-port
                    description: The process running the topology engine accepts connections (demo)
                    endpoint: 127.0.0.1:${port}
                    thresholdMillis: 500
        - name: Catalog engine
          type: Engine
          text: Scrapes configuration items on their schedules
          checks:
            - inline:
                schedule: "@every 1m"
                tcp:
                  - name: opsdeck-demo-catalog-engine-port
                    description: The process running the catalog engine accepts connections (demo)
                    endpoint: 127.0.0.1:${port}
                    thresholdMillis: 500
`;
}

/**
 * Applies the demo topology once per database (its own marker, so databases seeded before it
 * existed get it too); a new topology runs at the scheduler's first pass.
 */
export async function seedDemoTopology(ctx: AppContext): Promise<boolean> {
  const { rows } = await ctx.db.query<{ name: string }>(
    `INSERT INTO server_settings (name, value) VALUES ('demo_topology_seeded', now()::text)
     ON CONFLICT (name) DO NOTHING RETURNING name`,
  );
  if (!rows[0]) return false;
  for (const doc of parseDocuments(demoTopologyYaml(ctx.config.publicUrl, ctx.config.port))) {
    await applyTopology(ctx.db, parseTopology(doc, ctx.health.checkers), { source: 'demo' });
  }
  return true;
}
