// JavaScript for `display.javascript`, `test.javascript`, transforms and topology lookups, run in
// a QuickJS sandbox compiled to WebAssembly (quickjs-emscripten). Never node:vm: a script sees
// only the language itself and the variables it is given: no require, process, network, timers
// or file system.
//
// - Variables are JSON-copied in and exposed as globals (durations as milliseconds, see
//   duration.ts); `console.log` & co. exist and discard their output.
// - The result is the script's completion value: the value of the last expression statement
//   (`"code: " + code`, `JSON.stringify([...])`, `x = 1; if (x) { "yes" } else { "no" }`). A
//   script with a top-level `return` is run as a function body instead. A returned promise is
//   settled (no timers exist, so it must settle from microtasks). The value is JSON-copied out:
//   undefined and functions give undefined, dates ISO strings.
// - Limits per evaluation: a deadline (interrupt handler, default 5 s), a heap limit (default
//   64 MB) and a stack limit. Hitting one ends the script with an ExpressionError
//   ("JavaScript timed out after 5000 ms"); the engine stays usable.
// - One WASM module is loaded lazily and shared; each evaluation gets a fresh runtime and
//   context, disposed afterwards. Evaluation is synchronous once the module is loaded, so a
//   long script holds the event loop until its deadline. If the WebAssembly code throws on the
//   host side (V8's own stack overflow in deeply recursive parsing, say), the module is
//   discarded and a new one is loaded for the next evaluation.

import { newQuickJSWASMModule, shouldInterruptAfterDeadline } from 'quickjs-emscripten';
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
  VmCallResult,
} from 'quickjs-emscripten';
import { ExpressionError, errorAt, messageOf, positionOfLineColumn } from './errors.js';
import { toJavascriptJson } from './values.js';

export interface JavascriptOptions {
  /** Wall-clock limit for the whole evaluation, in ms (default 5000). */
  timeoutMs?: number;
  /** Heap limit of the sandbox, in bytes (default 64 MB). */
  memoryLimitBytes?: number;
}

export const JAVASCRIPT_DEFAULT_TIMEOUT_MS = 5000;
export const JAVASCRIPT_DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
/** QuickJS stack limit: recursion a few thousand calls deep. */
export const JAVASCRIPT_MAX_STACK_BYTES = 256 * 1024;
export const JAVASCRIPT_MAX_SCRIPT_LENGTH = 256 * 1024;

const FILENAME = 'script.js';
const RESULT_PHASE = 'converting the result to JSON';

/** Runs before the user's script: defines globals and returns the function that exports the result. */
const PRELUDE = `(function (varsJson) {
  var noop = function () {};
  globalThis.console = { log: noop, info: noop, warn: noop, error: noop, debug: noop, trace: noop };
  var vars = JSON.parse(varsJson);
  var keys = Object.keys(vars);
  for (var i = 0; i < keys.length; i++) globalThis[keys[i]] = vars[keys[i]];
  var stringify = JSON.stringify;
  return function exportResult(value) {
    if (value === undefined) return undefined;
    return stringify(value, function (key, v) { return typeof v === 'bigint' ? Number(v) : v; });
  };
})`;

let modulePromise: Promise<QuickJSWASMModule> | undefined;
let currentModule: QuickJSWASMModule | undefined;
let moduleLoads = 0;
let evaluations = 0;

function loadModule(): Promise<QuickJSWASMModule> {
  if (!modulePromise) {
    moduleLoads++;
    modulePromise = newQuickJSWASMModule().then(
      (module) => (currentModule = module),
      (error: unknown) => {
        modulePromise = undefined;
        throw new ExpressionError(`JavaScript engine could not be loaded: ${messageOf(error)}`, {
          language: 'javascript',
          cause: error,
        });
      },
    );
  }
  return modulePromise;
}

/** Drop a module whose internal state can no longer be trusted; the next evaluation loads a new one. */
function discardModule(module: QuickJSWASMModule): void {
  if (currentModule !== module) return;
  currentModule = undefined;
  modulePromise = undefined;
}

/** Counters and heap size of the shared engine (for tests and diagnostics). */
export async function javascriptEngineStats(): Promise<{
  moduleLoads: number;
  evaluations: number;
  heapBytes: number;
}> {
  const module = await loadModule();
  // The emscripten module is a private field of QuickJSWASMModule; its heap size shows leaks.
  const heap = (module as unknown as { module?: { HEAPU8?: Uint8Array } }).module?.HEAPU8;
  return { moduleLoads, evaluations, heapBytes: heap?.byteLength ?? 0 };
}

interface Limits {
  timeoutMs: number;
  memoryLimitBytes: number;
}

function limitsOf(opts: JavascriptOptions): Limits {
  const timeoutMs = opts.timeoutMs ?? JAVASCRIPT_DEFAULT_TIMEOUT_MS;
  const memoryLimitBytes = opts.memoryLimitBytes ?? JAVASCRIPT_DEFAULT_MEMORY_LIMIT_BYTES;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  if (!Number.isFinite(memoryLimitBytes) || memoryLimitBytes < 1024 * 1024) {
    throw new RangeError(`memoryLimitBytes must be at least 1 MB, got ${memoryLimitBytes}`);
  }
  return { timeoutMs, memoryLimitBytes };
}

/**
 * Run `code` in the sandbox with `vars` as globals and return its completion value (see the
 * module header). Throws ExpressionError for syntax errors, exceptions and exceeded limits.
 */
export async function runJavascript(
  code: string,
  vars: Record<string, unknown>,
  opts: JavascriptOptions = {},
): Promise<unknown> {
  const limits = limitsOf(opts);
  if (code.trim() === '')
    throw new ExpressionError('JavaScript is empty', { language: 'javascript', expression: code });
  if (code.length > JAVASCRIPT_MAX_SCRIPT_LENGTH) {
    throw new ExpressionError(
      `JavaScript is too long (${code.length} characters; the limit is ${JAVASCRIPT_MAX_SCRIPT_LENGTH})`,
      { language: 'javascript', expression: code.slice(0, 200) },
    );
  }
  let varsJson: string;
  try {
    varsJson = toJavascriptJson(vars);
  } catch (error) {
    throw new ExpressionError(`JavaScript variables could not be copied: ${messageOf(error)}`, {
      language: 'javascript',
      expression: code,
      cause: error,
    });
  }

  const module = await loadModule();
  evaluations++;
  let runtime: QuickJSRuntime | undefined;
  let context: QuickJSContext | undefined;
  const handles: QuickJSHandle[] = [];
  let trusted = true;
  try {
    runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryLimitBytes);
    runtime.setMaxStackSize(JAVASCRIPT_MAX_STACK_BYTES);
    const deadline = Date.now() + limits.timeoutMs;
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
    context = runtime.newContext();
    return execute(runtime, context, handles, code, varsJson, limits, deadline);
  } catch (error) {
    if (error instanceof ExpressionError) throw error;
    // Thrown by the host around the WebAssembly code, not by the script: the module's
    // memory may be inconsistent, so it is not reused.
    trusted = false;
    throw new ExpressionError(`JavaScript engine failure: ${messageOf(error)} (the script may nest too deeply)`, {
      language: 'javascript',
      expression: code,
      cause: error,
    });
  } finally {
    if (trusted) {
      try {
        for (const handle of handles) if (handle.alive) handle.dispose();
        context?.dispose();
        runtime?.dispose();
      } catch {
        trusted = false;
      }
    }
    if (!trusted) discardModule(module);
  }
}

/**
 * Compile `code` without running it (apply-time checking): throws an ExpressionError with the
 * line and column of a syntax error. A top-level `return` is accepted, as runJavascript accepts it.
 */
export async function checkJavascript(code: string): Promise<void> {
  if (code.trim() === '')
    throw new ExpressionError('JavaScript is empty', { language: 'javascript', expression: code });
  if (code.length > JAVASCRIPT_MAX_SCRIPT_LENGTH)
    throw new ExpressionError(
      `JavaScript is too long (${code.length} characters; the limit is ${JAVASCRIPT_MAX_SCRIPT_LENGTH})`,
      {
        language: 'javascript',
        expression: code.slice(0, 200),
      },
    );
  const module = await loadModule();
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(JAVASCRIPT_DEFAULT_MEMORY_LIMIT_BYTES);
  runtime.setMaxStackSize(JAVASCRIPT_MAX_STACK_BYTES);
  const deadline = Date.now() + JAVASCRIPT_DEFAULT_TIMEOUT_MS;
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const context = runtime.newContext();
  const handles: QuickJSHandle[] = [];
  try {
    let wrapped = false;
    let result = context.evalCode(code, FILENAME, { type: 'global', compileOnly: true });
    if (result.error && isTopLevelReturn(context, result.error)) {
      handles.push(result.error);
      wrapped = true;
      result = context.evalCode(`(function () {\n${code}\n})()`, FILENAME, { type: 'global', compileOnly: true });
    }
    if (result.error) {
      handles.push(result.error);
      const limits = {
        timeoutMs: JAVASCRIPT_DEFAULT_TIMEOUT_MS,
        memoryLimitBytes: JAVASCRIPT_DEFAULT_MEMORY_LIMIT_BYTES,
      };
      throw scriptError(context, result.error, code, wrapped, limits, 'compiling', deadline);
    }
    handles.push(result.value);
  } finally {
    for (const handle of handles) if (handle.alive) handle.dispose();
    context.dispose();
    runtime.dispose();
  }
}

function execute(
  runtime: QuickJSRuntime,
  context: QuickJSContext,
  handles: QuickJSHandle[],
  code: string,
  varsJson: string,
  limits: Limits,
  deadline: number,
): unknown {
  const keep = <T extends QuickJSHandle>(handle: T): T => {
    handles.push(handle);
    return handle;
  };
  const fail = (errorHandle: QuickJSHandle, wrapped: boolean, phase: string) => {
    keep(errorHandle);
    return scriptError(context, errorHandle, code, wrapped, limits, phase, deadline);
  };

  // Globals and the result exporter.
  const prelude = context.evalCode(PRELUDE, 'prelude.js', { type: 'global' });
  if (prelude.error) throw fail(prelude.error, false, 'setting up the sandbox');
  const setup = keep(prelude.value);
  const varsHandle = keep(context.newString(varsJson));
  const exporterResult = context.callFunction(setup, context.undefined, varsHandle);
  if (exporterResult.error) throw fail(exporterResult.error, false, 'loading the variables');
  const exporter = keep(exporterResult.value);

  // The script: as a program, or as a function body when it returns at top level.
  let wrapped = false;
  let result: VmCallResult<QuickJSHandle> = context.evalCode(code, FILENAME, { type: 'global' });
  if (result.error && isTopLevelReturn(context, keep(result.error))) {
    wrapped = true;
    result = context.evalCode(`(function () {\n${code}\n})()`, FILENAME, { type: 'global' });
  }
  if (result.error) throw fail(result.error, wrapped, 'running');
  let value = keep(result.value);

  // A promise (async function, Promise.resolve): run its jobs and take the settled value.
  const state = context.getPromiseState(value);
  if (!(state.type === 'fulfilled' && state.notAPromise)) {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) throw fail(jobs.error, wrapped, 'running');
    const settled = context.getPromiseState(value);
    if (settled.type === 'pending' && Date.now() >= deadline) {
      // The interrupt stopped the job queue; the promise was left pending.
      throw new ExpressionError(`JavaScript timed out after ${limits.timeoutMs} ms`, {
        language: 'javascript',
        expression: code,
      });
    }
    if (settled.type === 'pending') {
      throw new ExpressionError(
        'JavaScript returned a promise that never settled (there are no timers in the sandbox)',
        {
          language: 'javascript',
          expression: code,
        },
      );
    }
    if (settled.type === 'rejected') throw fail(settled.error, wrapped, 'running');
    value = keep(settled.value);
  }

  const exported = context.callFunction(exporter, context.undefined, value);
  if (exported.error) throw fail(exported.error, wrapped, RESULT_PHASE);
  const json = keep(exported.value);
  if (context.typeof(json) !== 'string') return undefined;
  return JSON.parse(context.getString(json)) as unknown;
}

function isTopLevelReturn(context: QuickJSContext, errorHandle: QuickJSHandle): boolean {
  const error = dumpError(context, errorHandle);
  return error.name === 'SyntaxError' && /return not in a function/.test(error.message);
}

interface DumpedError {
  name: string;
  message: string;
  stack: string;
}

function dumpError(context: QuickJSContext, errorHandle: QuickJSHandle): DumpedError {
  let dumped: unknown;
  try {
    dumped = context.dump(errorHandle);
  } catch (error) {
    return { name: 'Error', message: messageOf(error), stack: '' };
  }
  if (typeof dumped === 'object' && dumped !== null) {
    const { name, message, stack } = dumped as Record<string, unknown>;
    return {
      name: typeof name === 'string' ? name : 'Error',
      message: typeof message === 'string' ? message : JSON.stringify(dumped),
      stack: typeof stack === 'string' ? stack : '',
    };
  }
  return { name: 'thrown value', message: typeof dumped === 'string' ? dumped : JSON.stringify(dumped), stack: '' };
}

function scriptError(
  context: QuickJSContext,
  errorHandle: QuickJSHandle,
  code: string,
  wrapped: boolean,
  limits: Limits,
  phase: string,
  deadline: number,
): ExpressionError {
  const { name, message, stack } = dumpError(context, errorHandle);
  const plain = (text: string) => new ExpressionError(text, { language: 'javascript', expression: code });
  // Past the deadline every error is the interrupt's doing, even when QuickJS reports it as
  // something else (an interrupted promise job can surface as "TypeError: not a function").
  if ((name === 'InternalError' && message === 'interrupted') || Date.now() >= deadline) {
    return plain(`JavaScript timed out after ${limits.timeoutMs} ms`);
  }
  if (name === 'InternalError' && message === 'out of memory') {
    return plain(`JavaScript exceeded the memory limit of ${formatBytes(limits.memoryLimitBytes)} while ${phase}`);
  }
  if (name === 'InternalError' && message === 'stack overflow') {
    return plain(`JavaScript exceeded the stack limit while ${phase} (recursion too deep)`);
  }
  if (phase === RESULT_PHASE) return plain(`JavaScript result could not be converted to JSON: ${message}`);
  const where = new RegExp(`${FILENAME.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack);
  let offset: number | undefined;
  if (where) {
    const line = Number(where[1]) - (wrapped ? 1 : 0);
    if (line >= 1) offset = positionOfLineColumn(code, line, Number(where[2])).offset;
  }
  const what = name === 'thrown value' ? 'JavaScript threw a value' : `JavaScript ${name}`;
  return errorAt('javascript', what, message, code, offset);
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}
