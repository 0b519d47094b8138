// `http`: one request (url, method, headers, body, connection for the URL and credentials,
// thresholdMillis), made by the shared connections/httpRequest.ts exactly as the health `http` check
// makes it. Result: url, code, headers, content, and json when the answer looks like JSON; a status
// of 400 or more, or a slower answer than thresholdMillis, fails it.
import { z } from 'zod';
import { envVarSchema } from '../../connections/envValue.js';
import { errorText, SpecError } from '../../connections/errors.js';
import {
  HttpRedirectError,
  prepareHttpRequest,
  responseJson,
  sendHttpRequest,
  type HttpResponse,
  type PreparedHttpRequest,
} from '../../connections/httpRequest.js';
import { head } from '../../connections/text.js';
import { abortText, connectionContext, type ActionOutcome, type PlaybookAction } from './action.js';

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

/** A request that got no answer: the URL it was sent to (when known) and why. */
function failed(url: string | undefined, error: string): ActionOutcome {
  return { result: { url, code: undefined, headers: undefined, content: undefined }, error };
}

export const httpAction: PlaybookAction<HttpActionSpec> = {
  type: 'http',
  schema,
  untemplated: (spec) => (spec.templateBody ? [] : ['body']),
  async run(spec, ctx) {
    let req: PreparedHttpRequest;
    try {
      req = await prepareHttpRequest(
        { url: spec.url, connection: spec.connection, method: spec.method, headers: spec.headers, body: spec.body },
        connectionContext(ctx),
      );
    } catch (e) {
      if (e instanceof SpecError) return failed(undefined, e.message);
      throw e;
    }
    let res: HttpResponse;
    try {
      res = await sendHttpRequest(req, ctx.signal);
    } catch (e) {
      if (e instanceof SpecError || e instanceof HttpRedirectError) return failed(req.url.href, e.message);
      if (ctx.signal.aborted) return failed(req.url.href, abortText(ctx));
      return failed(req.url.href, errorText(e));
    }
    const { json, error: notJson } = responseJson(res);
    // A body that says it is JSON and does not parse fails the action.
    if (notJson)
      return {
        result: { url: req.url.href, code: res.status, headers: res.headers, content: res.body },
        error: notJson,
      };
    const result: Record<string, unknown> = {
      url: res.url.href,
      code: res.status,
      headers: res.headers,
      content: res.body,
    };
    if (/^\s*[[{]/.test(res.body)) result.json = json;
    if (res.status < 100 || res.status > 599) {
      return { result, error: `expected a status between 100 and 599, got ${res.status}` };
    }
    if (spec.thresholdMillis && res.elapsedMs > spec.thresholdMillis) {
      return { result, error: `response took ${res.elapsedMs} ms, over the ${spec.thresholdMillis} ms threshold` };
    }
    if (res.status >= 400) return { result, error: `HTTP ${res.status}${res.body ? `: ${head(res.body, 300)}` : ''}` };
    return { result };
  },
};
