// Scripts as they appear in specs (test, display, transform): one of CEL, Go template or JavaScript.
export interface Script {
  /** A CEL expression. */
  expr?: string;
  /** A Go text/template. */
  template?: string;
  /** JavaScript, run in a sandbox with a time limit. */
  javascript?: string;
  /** A JSONPath expression. */
  jsonPath?: string;
}
