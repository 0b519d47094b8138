// Demo data: on the first start with the embedded database (unless OPSDECK_DEMO=false), labelled
// resources that the real engines then work on, so a new user sees live results at once.
import type { AppContext } from '../app.js';
import { parseDocuments } from '../resources/yaml.js';
import { parseCanary } from '../health/canary.js';
import { applyCanary } from '../health/store.js';
import { seedDemoTopology } from '../topology/demo.js';
import { seedDemoPlaybooks } from '../playbooks/demo.js';

/** Opsdeck watching itself: its API, its port, and one check that fails on purpose. */
export function demoCanaryYaml(publicUrl: string, port: number): string {
  return `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: opsdeck-self
  namespace: demo
  labels:
    demo: "true"
    app: opsdeck
spec:
  schedule: "@every 30s"
  http:
    - name: opsdeck-api-about
      description: Opsdeck's own API answers with its version (demo)
      url: ${publicUrl}/api/about
      responseCodes: [200]
      thresholdMillis: 1000
      test:
        expr: "has(json.version)"
      display:
        template: "version {{.json.version}} on {{.json.database}}"
    - name: demo-deliberately-failing
      description: Fails on purpose, to show what a failing check looks like (demo)
      url: ${publicUrl}/api/about
      test:
        expr: "json.version == 'never-released'"
  tcp:
    - name: opsdeck-http-port
      description: The HTTP port accepts connections (demo)
      endpoint: 127.0.0.1:${port}
      thresholdMillis: 500
`;
}

/** Seeds the demo once per database; returns whether it did. */
export async function seedDemo(ctx: AppContext): Promise<boolean> {
  await seedDemoTopology(ctx);
  await seedDemoPlaybooks(ctx.db);
  const { rows } = await ctx.db.query<{ name: string }>(
    `INSERT INTO server_settings (name, value) VALUES ('demo_seeded', now()::text) ON CONFLICT (name) DO NOTHING RETURNING name`,
  );
  if (!rows[0]) return false;
  const docs = parseDocuments(demoCanaryYaml(ctx.config.publicUrl, ctx.config.port));
  for (const doc of docs) await applyCanary(ctx.db, parseCanary(doc, ctx.health.checkers), { source: 'demo' });
  return true;
}
