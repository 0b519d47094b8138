// The exec scraper: runs `script` with bash in a fresh temporary directory (env added to a minimal
// inherited environment, killed at its timeout); its stdout, JSON or YAML, becomes the items.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { envVarSchema } from '../../connections/envValue.js';
import { tail } from '../../connections/text.js';
import { durationMs } from '../../connections/duration.js';
import { baseEnv, findOnPath, runProcess } from '../../connections/process.js';
import { baseScraperFields, ScrapeError, type BaseScraperSpec, type RawDocument, type Scraper } from '../scraper.js';
import { parseText } from './parse.js';

export const DEFAULT_EXEC_TIMEOUT_MS = 60_000;

export const execSchema = z.looseObject({
  ...baseScraperFields,
  script: z.string({ error: 'script is required (bash that prints JSON or YAML)' }).min(1, 'script is required'),
  env: z.array(envVarSchema).optional(),
});

export type ExecSpec = z.infer<typeof execSchema> & BaseScraperSpec;

export const execScraper: Scraper<ExecSpec> = {
  type: 'exec',
  schema: execSchema as z.ZodType<ExecSpec>,
  async scrape(spec, ctx): Promise<RawDocument[]> {
    const env: Record<string, string> = {};
    for (const e of spec.env ?? []) env[e.name] = (await ctx.resolve({ value: e.value, valueFrom: e.valueFrom })) ?? '';
    const bash = await findOnPath('bash', process.env.PATH);
    if (!bash) throw new ScrapeError('bash is not installed on this server');
    const timeoutMs = spec.timeout === undefined ? DEFAULT_EXEC_TIMEOUT_MS : durationMs(spec.timeout);
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-scrape-'));
    try {
      const r = await runProcess(bash, ['-c', spec.script], { env: baseEnv({ ...env, PWD: cwd }), cwd, signal });
      if (r.spawnError) throw new ScrapeError(`could not start bash: ${r.spawnError.message}`);
      if (r.aborted) throw new ScrapeError(`the script did not finish within ${timeoutMs} ms and was killed`);
      if (r.exitCode !== 0) {
        const stderr = tail(r.stderr, 1_000).trim();
        throw new ScrapeError(`the script exited with ${r.exitCode ?? r.signal}${stderr ? `: ${stderr}` : ''}`);
      }
      if (r.truncated) throw new ScrapeError('the script printed more than 1 MB; print less or write to a file');
      const parsed = parseText(r.stdout, spec.format);
      const first = spec.script.split('\n')[0]!.slice(0, 80);
      return parsed.docs.map((data, i) => ({
        data,
        source: parsed.docs.length > 1 ? `exec: ${first}#${i}` : `exec: ${first}`,
        format: parsed.format,
      }));
    } finally {
      await rm(cwd, { recursive: true, force: true }).catch(() => undefined);
    }
  },
};
