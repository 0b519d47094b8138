// JSONPath for scraper fields (`id: $.reg_no`, `items: $.items[*]`) and `jsonPath` scripts, on
// jsonpath-plus. Result shape: a path that names one place (`$.a.b`, `$.items[0]`) gives that
// value, or undefined when nothing is there; a path that can match many (wildcards `*`, `..`,
// filters `[?(...)]`, unions, slices) gives the list of its matches, even a single one, or
// undefined when there is no match (jsonpath-plus's `wrap: false`). Filter expressions run in
// jsonpath-plus's own "safe" evaluator (never eval/new Function); it accepts only simple
// expressions over `@` (`@.price < 10`, `@.name == 'x'`).

import { JSONPath } from 'jsonpath-plus';
import { ExpressionError, messageOf } from './errors.js';

export const JSONPATH_MAX_LENGTH = 4 * 1024;

/**
 * Evaluate `path` against `data`. Single-place paths return the value (undefined if absent);
 * multi-match paths return an array of matches (undefined when there are none).
 */
export function evaluateJsonPath(path: string, data: unknown): unknown {
  const expression = path.trim();
  if (expression === '') throw new ExpressionError('JSONPath is empty', { language: 'jsonpath', expression: path });
  if (expression.length > JSONPATH_MAX_LENGTH) {
    throw new ExpressionError(
      `JSONPath is too long (${expression.length} characters; the limit is ${JSONPATH_MAX_LENGTH})`,
      {
        language: 'jsonpath',
        expression: expression.slice(0, 200),
      },
    );
  }
  try {
    return JSONPath({
      path: expression,
      // jsonpath-plus's `json` option is typed as a JSON value; any data is accepted at run time.
      json: data as null,
      wrap: false,
      eval: 'safe',
      ignoreEvalErrors: false,
    }) as unknown;
  } catch (error) {
    throw new ExpressionError(`JSONPath error in ${JSON.stringify(expression)}: ${messageOf(error)}`, {
      language: 'jsonpath',
      expression,
      cause: error,
    });
  }
}
