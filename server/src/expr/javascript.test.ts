import { describe, expect, it } from 'vitest';
import { durationFromMs } from './duration.js';
import { ExpressionError } from './errors.js';
import { javascriptEngineStats, JAVASCRIPT_MAX_SCRIPT_LENGTH, runJavascript } from './javascript.js';

const vars = {
  code: 200,
  elapsed: durationFromMs(120),
  json: { items: [{ name: 'a' }, { name: 'b' }] },
  at: new Date('2024-01-02T03:04:05Z'),
};

async function jsError(code: string, opts: Parameters<typeof runJavascript>[2] = {}): Promise<ExpressionError> {
  try {
    await runJavascript(code, vars, opts);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`expected ${code} to fail`);
}

describe('runJavascript: completion values', () => {
  it('returns the value of the last expression (display.javascript style)', async () => {
    expect(await runJavascript('"code: " + code', vars)).toBe('code: 200');
    expect(await runJavascript('1 + 2', {})).toBe(3);
    expect(await runJavascript('var total = 0;\nfor (const i of json.items) total++;\ntotal', vars)).toBe(2);
    expect(await runJavascript('x = code; if (x == 200) { "up" } else { "down" }', vars)).toBe('up');
  });

  it('returns JSON text built by transform scripts', async () => {
    const transform = 'JSON.stringify(json.items.map(function (i) { return { name: i.name, pass: code == 200 } }))';
    expect(await runJavascript(transform, vars)).toBe('[{"name":"a","pass":true},{"name":"b","pass":true}]');
  });

  it('runs scripts with a top-level return as a function body', async () => {
    expect(await runJavascript('return code + 1', vars)).toBe(201);
    expect(await runJavascript('if (code == 200) {\n  return "ok";\n}\nreturn "bad";', vars)).toBe('ok');
    expect(await runJavascript('const names = json.items.map(i => i.name);\nreturn names;', vars)).toEqual(['a', 'b']);
    expect(await runJavascript('if (false) return 1', vars)).toBeUndefined();
  });

  it('copies structured results out as JSON', async () => {
    expect(await runJavascript('({ a: [1, "x", null], b: { c: true } })', {})).toEqual({
      a: [1, 'x', null],
      b: { c: true },
    });
    expect(await runJavascript('new Date(0)', {})).toBe('1970-01-01T00:00:00.000Z');
    expect(await runJavascript('undefined', {})).toBeUndefined();
    expect(await runJavascript('(function () {})', {})).toBeUndefined();
    expect(await runJavascript('var declared = 1', {})).toBeUndefined();
    expect(await runJavascript('10n ** 3n', {})).toBe(1000);
  });

  it('settles promises and async functions', async () => {
    expect(await runJavascript('Promise.resolve(41).then(x => x + 1)', {})).toBe(42);
    expect(await runJavascript('async function f() { await null; return code } f()', vars)).toBe(200);
    expect((await jsError('Promise.reject(new Error("nope"))')).message).toMatch(/JavaScript Error.*nope/);
    expect((await jsError('new Promise(() => {})')).message).toBe(
      'JavaScript returned a promise that never settled (there are no timers in the sandbox)',
    );
  });
});

describe('runJavascript: variables', () => {
  it('exposes variables as globals, JSON-copied (durations in ms, dates as ISO text)', async () => {
    expect(await runJavascript('elapsed', vars)).toBe(120);
    expect(await runJavascript('typeof at + " " + at', vars)).toBe('string 2024-01-02T03:04:05.000Z');
    expect(await runJavascript('json.items[1].name', vars)).toBe('b');
    expect(await runJavascript('globalThis["odd-key"]', { 'odd-key': 5 })).toBe(5);
  });

  it('cannot change the caller values', async () => {
    const own = { list: [1, 2] };
    await runJavascript('list.push(3); list.length', own);
    expect(own.list).toEqual([1, 2]);
  });

  it('gives each evaluation a fresh global scope', async () => {
    await runJavascript('globalThis.leftover = 1', {});
    expect(await runJavascript('typeof leftover', {})).toBe('undefined');
  });

  it('refuses variables that cannot be copied', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(runJavascript('1', { cyclic })).rejects.toThrow(
      /JavaScript variables could not be copied: .*circular/i,
    );
  });
});

describe('runJavascript: sandbox', () => {
  it('offers the language only: no require, process, timers or network', async () => {
    const globals = ['require', 'process', 'setTimeout', 'setInterval', 'fetch', 'XMLHttpRequest', 'module', 'Buffer'];
    const types = await runJavascript(`[${globals.map((g) => `typeof ${g}`).join(', ')}]`, {});
    expect(types).toEqual(globals.map(() => 'undefined'));
  });

  it('has a console whose output is discarded', async () => {
    expect(await runJavascript('console.log("x"); console.error("y"); "done"', {})).toBe('done');
  });
});

describe('runJavascript: errors', () => {
  it('reports syntax errors with line and column', async () => {
    const error = await jsError('var a = 1;\nvar b = (;');
    expect(error.message).toMatch(/^JavaScript SyntaxError at line 2, column \d+: /);
    expect(error.message).toContain('  var b = (;');
    expect(error.position?.line).toBe(2);
    expect(error.language).toBe('javascript');
  });

  it('reports exceptions at the throwing line, also in function-body scripts', async () => {
    const error = await jsError('const x = 1;\n  missing.field');
    expect(error.message).toMatch(
      /^JavaScript ReferenceError at line 2, column 3: 'missing' is not defined\n {4}missing\.field\n {4}\^/,
    );
    const wrapped = await jsError('const x = 1;\nif (x) throw new TypeError("bad x");\nreturn x;');
    expect(wrapped.message).toMatch(/^JavaScript TypeError at line 2, column \d+: bad x/);
  });

  it('reports thrown non-errors', async () => {
    expect((await jsError('throw "plain"')).message).toBe('JavaScript threw a value: plain\n  in: throw "plain"');
  });

  it('reports results that are not JSON', async () => {
    expect((await jsError('var o = {}; o.o = o; o')).message).toMatch(
      /^JavaScript result could not be converted to JSON: .*circular/,
    );
  });

  it('refuses empty and over-long scripts and bad options', async () => {
    expect((await jsError('  ')).message).toBe('JavaScript is empty');
    expect((await jsError('1;'.repeat(JAVASCRIPT_MAX_SCRIPT_LENGTH))).message).toMatch(/JavaScript is too long/);
    await expect(runJavascript('1', {}, { timeoutMs: 0 })).rejects.toThrow(/timeoutMs must be a positive number/);
    await expect(runJavascript('1', {}, { memoryLimitBytes: 10 })).rejects.toThrow(
      /memoryLimitBytes must be at least 1 MB/,
    );
  });
});

describe('runJavascript: limits', () => {
  it('ends an infinite loop after the default 5 s with a clear error', { timeout: 20_000 }, async () => {
    const started = Date.now();
    const error = await jsError('while (true) {}');
    expect(error.message).toBe('JavaScript timed out after 5000 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('honours a custom time limit, also inside async code', async () => {
    expect((await jsError('for (;;) {}', { timeoutMs: 200 })).message).toBe('JavaScript timed out after 200 ms');
    const asyncLoop = 'async function spin() { for (;;) await null } spin()';
    expect((await jsError(asyncLoop, { timeoutMs: 200 })).message).toBe('JavaScript timed out after 200 ms');
  });

  it('stops a script that exceeds the memory limit', async () => {
    const error = await jsError('var a = []; for (;;) a.push({ i: a.length, s: "x" + a.length })', {
      memoryLimitBytes: 8 * 1024 * 1024,
    });
    expect(error.message).toBe('JavaScript exceeded the memory limit of 8 MB while running');
  });

  it('applies the memory limit to the variables too', async () => {
    const big = { blob: 'x'.repeat(3 * 1024 * 1024) };
    await expect(runJavascript('blob.length', big, { memoryLimitBytes: 2 * 1024 * 1024 })).rejects.toThrow(
      /exceeded the memory limit of 2 MB while (setting up the sandbox|loading the variables)/,
    );
  });

  it('stops runaway recursion', async () => {
    expect((await jsError('function r() { return r() } r()')).message).toBe(
      'JavaScript exceeded the stack limit while running (recursion too deep)',
    );
    expect(await runJavascript('function d(n) { return n == 0 ? 0 : 1 + d(n - 1) } d(500)', {})).toBe(500);
  });

  it('keeps working after timeouts, memory exhaustion and engine-level stack overflows', async () => {
    await jsError('for (;;) {}', { timeoutMs: 50 });
    await jsError('var s = "x"; for (;;) s += s', { memoryLimitBytes: 4 * 1024 * 1024 });
    expect(await runJavascript('"still " + "working"', {})).toBe('still working');
    // Deeply nested source overflows V8's own stack inside the WebAssembly parser, before
    // QuickJS's stack check: the module is replaced and the next evaluation still works.
    const before = await javascriptEngineStats();
    const deep = await jsError('eval("(".repeat(200000))');
    expect(deep.message).toMatch(/^JavaScript engine failure: Maximum call stack size exceeded/);
    expect(await runJavascript('"still " + "working"', {})).toBe('still working');
    expect((await javascriptEngineStats()).moduleLoads).toBe(before.moduleLoads + 1);
  });

  it('runs 1,000 evaluations without leaking engine memory', { timeout: 60_000 }, async () => {
    await runJavascript('1', {});
    const before = await javascriptEngineStats();
    for (let i = 0; i < 1000; i++) {
      const script =
        i % 3 === 0 ? 'return code + 1' : i % 3 === 1 ? 'JSON.stringify(json.items)' : 'throw new Error("x")';
      try {
        await runJavascript(script, vars);
      } catch (error) {
        if (!(error instanceof ExpressionError)) throw error;
      }
    }
    const after = await javascriptEngineStats();
    expect(after.evaluations - before.evaluations).toBe(1000);
    expect(after.moduleLoads).toBe(before.moduleLoads); // one shared module, never discarded
    // A leaked runtime costs ~56 KB of WebAssembly heap; 1,000 of them would add ~56 MB.
    expect(after.heapBytes - before.heapBytes).toBeLessThan(4 * 1024 * 1024);
  });
});
