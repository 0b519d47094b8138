// Load generator of `npm run bench -- rest`, run as its own process (never inside a server under
// test): node bench/load.mjs <config.json>. Drives autocannon with a fixed request mix, warm-up
// first (results discarded), then the measured run, and prints one JSON line with the results.
//
// config: { url, connections, warmupSeconds, durationSeconds, seed,
//           urls?: [url, ...],                        // several servers and no balancer: the connections
//                                                      // are split among them round-robin (one autocannon each)
//           connectionRate?: N,                       // requests a second per connection (default: as fast as answered)
//           shapes: [{ name, path, headers, values?, conditional? }],  // {0}, {1}… in path: items of a random
//                                                      // values entry; conditional: If-None-Match with the last ETag
//           sequence: [shapeIndex, ...] }             // each connection cycles through it
// Per shape: the latency of its answers below 400, and `failed` (answers of 400 or more).
import autocannon from 'autocannon';
import fs from 'node:fs';

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

/** mulberry32: a small deterministic PRNG, so every run asks for the same values in the same order. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Samples {
  constructor() {
    this.data = new Float64Array(1 << 16);
    this.length = 0;
  }
  push(v) {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  summary() {
    const s = this.data.slice(0, this.length).sort();
    const at = (p) => (s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] : null);
    let sum = 0;
    for (const v of s) sum += v;
    return {
      count: s.length,
      mean: s.length ? sum / s.length : null,
      p50: at(50),
      p90: at(90),
      p99: at(99),
      max: at(100),
    };
  }
}

/** One autocannon against `url` with `connections`, its samples added to the shared ones. */
function runOne(url, connections, seconds, measure, { random, overall, perShape, failed }) {
  const requests = config.sequence.map((index) => {
    const shape = config.shapes[index];
    return {
      method: 'GET',
      headers: shape.headers,
      setupRequest(req, context) {
        const v = shape.values?.[Math.floor(random() * shape.values.length)];
        const path = v ? shape.path.replace(/\{(\d)\}/g, (_, k) => v[Number(k)]) : shape.path;
        context.started = performance.now();
        // A conditional shape sends the ETag of this connection's previous answer, as the console's poll does.
        const etag = shape.conditional ? context.etags?.[index] : undefined;
        return { ...req, path, headers: etag ? { ...req.headers, 'if-none-match': etag } : req.headers };
      },
      onResponse(status, _body, context, headers) {
        if (shape.conditional && headers?.etag) (context.etags ??= {})[index] = headers.etag;
        if (measure && status < 400) perShape[index].push(performance.now() - context.started);
        else if (measure) failed[index]++;
      },
    };
  });
  return new Promise((resolve, reject) => {
    // connectionRate: each connection sends at most that many requests a second (a reader's pace).
    const rate = config.connectionRate ? { connectionRate: config.connectionRate } : {};
    const instance = autocannon(
      { url, connections, duration: seconds, requests, timeout: 30, ...rate },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    // autocannon's own histogram keeps whole milliseconds; keep the exact response times too.
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (measure && statusCode < 400) overall.push(responseTime);
    });
  });
}

async function run(seconds, measure) {
  const shared = {
    random: prng(config.seed),
    overall: new Samples(),
    perShape: config.shapes.map(() => new Samples()),
    failed: config.shapes.map(() => 0),
  };
  const urls = config.urls ?? [config.url];
  const results = await Promise.all(
    urls.map((url, i) => {
      // Round-robin: connection k goes to urls[k % urls.length].
      const connections = Math.floor(config.connections / urls.length) + (i < config.connections % urls.length ? 1 : 0);
      return runOne(url, connections, seconds, measure, shared);
    }),
  );
  const sum = (f) => results.reduce((a, r) => a + (f(r) ?? 0), 0);
  const statusCodeStats = {};
  for (const r of results)
    for (const [k, v] of Object.entries(r.statusCodeStats ?? {}))
      statusCodeStats[k] = { count: (statusCodeStats[k]?.count ?? 0) + v.count };
  const result = {
    duration: Math.max(...results.map((r) => r.duration)),
    latency: results[0].latency,
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    // Answers of 400 or more (a 304 to a conditional poll is an answer, not an error).
    non2xx: Object.entries(statusCodeStats).reduce((a, [k, v]) => a + (Number(k) >= 400 ? v.count : 0), 0),
    statusCodeStats,
  };
  return { result, overall: shared.overall, perShape: shared.perShape, failed: shared.failed };
}

if (config.warmupSeconds > 0) await run(config.warmupSeconds, false);
// The parent samples the processes' CPU time between these two lines.
process.stdout.write('measure-start\n');
const { result, overall, perShape, failed } = await run(config.durationSeconds, true);
const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
const total = Object.values(statusCodes).reduce((a, b) => a + b, 0);
process.stdout.write(
  JSON.stringify({
    durationSeconds: result.duration,
    responses: total,
    rps: total / result.duration,
    latency: overall.summary(),
    autocannonLatency: { p50: result.latency.p50, p99: result.latency.p99 },
    perShape: Object.fromEntries(
      config.shapes.map((s, i) => [s.name, { ...perShape[i].summary(), failed: failed[i] }]),
    ),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
  }) + '\n',
);
