// `http`: one request (url, method, headers, body, connection for the URL and credentials,
// thresholdMillis), made by the health `http` checker. Result: code, headers, content and json when
// the answer is JSON; a status of 400 or more, or a slower answer than thresholdMillis, fails it.
import { z } from 'zod';
import { envVarSchema } from '../../connections/envValue.js';
import { head } from '../../connections/text.js';
import { httpChecker } from '../../health/checkers/http.js';
import { checkContext, type PlaybookAction } from './action.js';

/** Every status is accepted by the checker; the action judges codes itself (>= 400 fails). */
const ANY_CODE = Array.from({ length: 500 }, (_, i) => i + 100);

const schema = z
  .looseObject({
    url: z.string().optional(),
    connection: z.string().optional(),
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, 'method must be an HTTP method such as GET, POST, PUT or DELETE')
      .optional(),
    headers: z.array(envVarSchema).optional(),
    body: z.string().optional(),
    templateBody: z.boolean().optional(),
    thresholdMillis: z.number().nonnegative().optional(),
  })
  .superRefine((s, issue) => {
    if (!s.url && !s.connection)
      issue.addIssue({ code: 'custom', path: ['url'], message: 'url is required (or a connection that has one)' });
  });
export type HttpActionSpec = z.infer<typeof schema>;

export const httpAction: PlaybookAction<HttpActionSpec> = {
  type: 'http',
  schema,
  untemplated: (spec) => (spec.templateBody ? [] : ['body']),
  async run(spec, ctx) {
    const r = await httpChecker.run(
      {
        name: 'playbook-http',
        url: spec.url,
        connection: spec.connection,
        method: spec.method,
        headers: spec.headers,
        body: spec.body,
        thresholdMillis: spec.thresholdMillis,
        responseCodes: ANY_CODE,
      },
      checkContext(ctx),
    );
    const d = r.data as { code?: number; headers?: unknown; content?: string; json?: unknown; url?: string };
    const result: Record<string, unknown> = { url: d.url, code: d.code, headers: d.headers, content: d.content };
    if (typeof d.content === 'string' && /^\s*[[{]/.test(d.content) && d.json !== undefined) result.json = d.json;
    if (r.pass && d.code !== undefined && d.code >= 400) {
      return { result, error: `HTTP ${d.code}${d.content ? `: ${head(d.content, 300)}` : ''}` };
    }
    return { result, error: r.pass ? undefined : (r.error ?? 'the request failed') };
  },
};
