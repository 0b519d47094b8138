// Demo playbooks (labelled demo, seeded with the demo data): real actions on the demo resources —
// probing a health check's URL with curl, printing a catalog item's config, and reading a
// component's health and properties.
import type { Database } from '../db/database.js';
import { parseDocuments } from '../resources/yaml.js';
import { parsePlaybook } from './playbook.js';
import { applyPlaybook } from './store.js';

export const DEMO_PLAYBOOKS_YAML = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: demo-probe-endpoint
  namespace: demo
  labels:
    demo: "true"
spec:
  title: Probe the endpoint
  description: Requests the check's URL a few times with curl and prints the status and time of each (demo data)
  category: Diagnostics
  icon: http
  checks:
    - types: [http]
  parameters:
    - name: count
      label: Requests
      default: "5"
      properties:
        format: number
        min: 1
        max: 20
  actions:
    - name: probe
      timeout: 2m
      exec:
        script: |
          for i in $(seq 1 "$COUNT"); do
            curl -sS -o /dev/null --max-time 10 -w "request $i: HTTP %{http_code} in %{time_total}s\\n" "$URL"
          done
        env:
          - name: URL
            value: "{{.check.endpoint}}"
          - name: COUNT
            value: "{{.params.count}}"
---
apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: demo-show-config
  namespace: demo
  labels:
    demo: "true"
spec:
  title: Show the config
  description: Prints the catalog item's type, tags and configuration (demo data)
  category: Diagnostics
  icon: file-json
  configs:
    - types: ["Kubernetes::*"]
  actions:
    - name: print
      exec:
        script: |
          echo "# {{.config.type}} {{.config.name}}"
          echo "# tags: $TAGS"
          printf '%s\\n' "$CONFIG"
        env:
          - name: TAGS
            value: "{{.config.tags | toJson}}"
          - name: CONFIG
            value: "{{.config.config | toPrettyJson}}"
---
apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: demo-component-report
  namespace: demo
  labels:
    demo: "true"
spec:
  title: Component report
  description: Prints the component's health, status and properties (demo data)
  category: Reports
  icon: file-text
  components:
    - namespace: demo
  parameters:
    - name: note
      label: Note
      default: "Report requested by {{.user.name}}"
  actions:
    - name: report
      exec:
        script: |
          echo "$NOTE"
          echo "component: {{.component.name}} ({{.component.type}})"
          echo "health: {{.component.health}}, status: {{.component.status}}"
          echo "properties: {{.component.properties | toJson}}"
        env:
          - name: NOTE
            value: "{{.params.note}}"
`;

/** Applies the demo playbooks once per database (their own marker). */
export async function seedDemoPlaybooks(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ name: string }>(
    `INSERT INTO server_settings (name, value) VALUES ('demo_playbooks_seeded', now()::text)
     ON CONFLICT (name) DO NOTHING RETURNING name`,
  );
  if (!rows[0]) return false;
  for (const doc of parseDocuments(DEMO_PLAYBOOKS_YAML)) {
    await applyPlaybook(db, parsePlaybook(doc), { source: 'demo' });
  }
  return true;
}
