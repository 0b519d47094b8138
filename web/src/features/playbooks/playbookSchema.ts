// The Playbook resource (mission-control.flanksource.com/v1) as the spec editor sees it: the JSON
// Schema outline the code editor checks before saving (the server checks the rest and answers with
// the line and column of each problem), the sample a new playbook starts from, and the title
// field kept in step with `spec.title` in the YAML text.
import { isMap, isScalar, parseDocument, type Document } from 'yaml';
import type { JsonSchema, JsonSchemaObject } from '@opsdeck/common/jsonSchema';

export const PLAYBOOK_API_VERSION = 'mission-control.flanksource.com/v1';

const PARAMETER_TYPES = [
  'check',
  'checkbox',
  'code',
  'component',
  'config',
  'list',
  'people',
  'team',
  'text',
  'secret',
  'connection',
];

const stringMap: JsonSchemaObject = { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } };
const selectors: JsonSchemaObject = { type: 'array', items: { type: 'object' } };

const parameter: JsonSchemaObject = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    label: { type: 'string' },
    description: { type: 'string' },
    type: { enum: PARAMETER_TYPES },
    required: { type: 'boolean' },
    default: {}, // a scalar, or a mapping or list for code parameters
    icon: { type: 'string' },
    properties: { type: 'object' },
  },
};

const action: JsonSchemaObject = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    delay: { type: 'string' },
    timeout: { type: 'string' },
    filter: { type: 'string' },
    if: { type: 'string' },
    retry: { type: 'object', required: ['limit'] },
    gitops: { type: 'object', required: ['repo', 'commit'] },
    exec: {
      type: 'object',
      required: ['script'],
      properties: {
        script: { type: 'string', minLength: 1 },
        connections: { type: 'object' },
        env: { type: 'array', items: { type: 'object' } },
        artifacts: { type: 'array', items: { type: 'object' } },
        checkout: { type: 'object' },
      },
    },
    http: {
      type: 'object',
      properties: {
        url: { type: 'string' },
        connection: { type: 'string' },
        method: { type: 'string' },
        body: { type: 'string' },
        templateBody: { type: 'boolean' },
      },
    },
    sql: {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', minLength: 1 },
        driver: { type: 'string' },
        connection: { type: 'string' },
        url: { type: 'string' },
      },
    },
  },
};

export const playbookResourceJsonSchema: JsonSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: PLAYBOOK_API_VERSION },
    kind: { const: 'Playbook' },
    metadata: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1 },
        namespace: { type: 'string' },
        labels: stringMap,
      },
    },
    spec: {
      type: 'object',
      required: ['title', 'actions'],
      properties: {
        title: { type: 'string', minLength: 1 },
        description: { type: 'string' },
        category: { type: 'string' },
        icon: { type: 'string' },
        timeout: { type: 'string' },
        configs: selectors,
        checks: selectors,
        components: selectors,
        parameters: { type: 'array', items: parameter },
        approval: { type: 'object' },
        on: { type: 'object' },
        filters: { type: 'array', items: { type: 'string' } },
        env: { type: 'array', items: { type: 'object' } },
        actions: { type: 'array', minItems: 1, items: action },
      },
    },
  },
};

/** What /playbooks/new starts from, and the sample the empty /playbooks page shows. */
export const SAMPLE_PLAYBOOK_YAML = `apiVersion: ${PLAYBOOK_API_VERSION}
kind: Playbook
metadata:
  name: echo-greeting
  namespace: default
spec:
  title: Echo a greeting
  description: Prints a greeting on the server.
  category: Examples
  icon: terminal
  parameters:
    - name: greeting
      label: Greeting
      type: text
      default: hello
  actions:
    - name: echo
      exec:
        script: echo "{{.params.greeting}}"
`;

/** `spec.title` of a Playbook YAML text: '' when it has none, undefined when the text does not parse. */
export function titleOfYaml(text: string): string | undefined {
  const doc = parseDocument(text);
  if (doc.errors.length) return undefined;
  const title: unknown = doc.getIn(['spec', 'title']);
  return typeof title === 'string' ? title : title === undefined || title === null ? '' : String(title);
}

/**
 * The YAML text with `spec.title` set (removed when blank), the rest of the text (comments, order)
 * kept; undefined when the text does not parse or is not a mapping with a mapping (or empty) spec.
 */
export function withYamlTitle(text: string, title: string): string | undefined {
  const doc: Document = parseDocument(text);
  if (doc.errors.length) return undefined;
  if (doc.contents === null) doc.contents = doc.createNode({});
  const root = doc.contents;
  if (!isMap(root)) return undefined;
  const spec: unknown = root.get('spec', true);
  if (isMap(spec)) {
    if (!title) spec.delete('title');
    else if (spec.has('title')) spec.set('title', title);
    // A new title goes first in the spec, where people look for it.
    else spec.items.unshift(doc.createPair('title', title));
  } else if (spec === undefined || (isScalar(spec) && spec.value === null)) {
    if (title) root.set('spec', doc.createNode({ title }));
  } else {
    return undefined;
  }
  return doc.toString();
}
