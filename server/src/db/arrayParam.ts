// Large array parameters written in one go. node-postgres writes an array parameter's text form
// element by element, by concatenation, quoting every string: for the 10,000-element columns the
// health engine writes every minute (edges, precomputed summaries) that was ~2 MB of garbage per
// column, tens of MB a minute on an idle server.

/**
 * The text form of an array parameter (`{1,2,NULL}`) for numbers and tokens that need no quoting
 * in an array literal (uuids, ISO times): no braces, commas, quotes, backslashes or spaces.
 */
export function arrayParam(values: ReadonlyArray<number | string | null | undefined>): string {
  return `{${values.map((v) => (v === null || v === undefined ? 'NULL' : v)).join(',')}}`;
}
