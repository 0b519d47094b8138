// A Dockerfile read the way `docker build` reads it (the subset Opsdeck's uses: ARG, FROM … AS,
// WORKDIR, COPY [--from=stage], RUN, ENV, USER, VOLUME, EXPOSE, HEALTHCHECK, CMD), and its COPY
// steps carried out on plain directories, so a test can run a stage's steps without a Docker engine.
import fs from 'node:fs';
import path from 'node:path';

export interface Instruction {
  /** Upper-case keyword: COPY, RUN... */
  op: string;
  /** The rest of the line, continuations joined. */
  args: string;
  line: number;
}

export interface Stage {
  name: string;
  image: string;
  steps: Instruction[];
}

export interface Dockerfile {
  /** ARGs declared before the first FROM, with their defaults. */
  args: Record<string, string>;
  stages: Stage[];
}

/** Splits the file into instructions (comments dropped, `\` continuations joined) and stages. */
export function parseDockerfile(text: string): Dockerfile {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const first = i + 1;
    let line = lines[i]!.trim();
    if (!line || line.startsWith('#')) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1).trim()} ${lines[++i]!.trim()}`;
    const m = /^(\w+)\s+(.*)$/s.exec(line);
    if (!m) throw new Error(`Dockerfile line ${first}: cannot read "${line}"`);
    instructions.push({ op: m[1]!.toUpperCase(), args: m[2]!.trim(), line: first });
  }
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.op === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) throw new Error(`Dockerfile line ${ins.line}: FROM ${ins.args}`);
      const image = m[1]!.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a: string, b: string) => args[a ?? b] ?? '');
      stages.push({ name: m[2] ?? String(stages.length), image, steps: [] });
    } else if (!stages.length) {
      if (ins.op !== 'ARG') throw new Error(`Dockerfile line ${ins.line}: ${ins.op} before FROM`);
      const [k, v = ''] = ins.args.split('=');
      args[k!] = v;
    } else {
      stages.at(-1)!.steps.push(ins);
    }
  }
  return { args, stages };
}

export interface Copy {
  from?: string;
  sources: string[];
  dest: string;
}

/** COPY [--from=stage] src... dest (JSON form too). */
export function parseCopy(args: string): Copy {
  let rest = args;
  let from: string | undefined;
  const flag = /^--from=(\S+)\s+/.exec(rest);
  if (flag) {
    from = flag[1];
    rest = rest.slice(flag[0].length);
  }
  if (/^--/.test(rest)) throw new Error(`COPY flag not supported here: ${args}`);
  const parts = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : rest.split(/\s+/);
  return { from, sources: parts.slice(0, -1), dest: parts.at(-1)! };
}

/** ENV k=v k2=v2 (values unquoted or "double quoted"). */
export function parseEnv(args: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of args.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S+)/g)) {
    env[m[1]!] = m[2]!.startsWith('"') ? (JSON.parse(m[2]!) as string) : m[2]!;
  }
  return env;
}

/** The exec (JSON) or shell form of CMD / HEALTHCHECK CMD as argv. */
export function commandArgv(form: string): string[] {
  return form.trim().startsWith('[') ? (JSON.parse(form) as string[]) : ['/bin/sh', '-c', form];
}

/**
 * Carries out one COPY: `sources` are read from `contextDir` (the build context, or another stage's
 * root), relative to that stage's WORKDIR when `--from`; the destination is relative to `workdir`
 * inside `rootDir`. As in Docker: a directory source copies its contents; several sources or a
 * destination ending in `/` land inside the destination directory. `skip` filters the build
 * context (what .dockerignore leaves out).
 */
export function applyCopy(
  copy: Copy,
  contextDir: string,
  rootDir: string,
  workdir: string,
  skip: (rel: string) => boolean = () => false,
): void {
  const destAbs = path.join(
    rootDir,
    path.posix.isAbsolute(copy.dest) ? copy.dest : path.posix.join(workdir, copy.dest),
  );
  const intoDir = copy.dest.endsWith('/') || copy.dest === '.' || copy.dest === './' || copy.sources.length > 1;
  for (const src of copy.sources) {
    const srcAbs = path.join(contextDir, src);
    if (!fs.existsSync(srcAbs)) throw new Error(`COPY ${src}: not found in ${contextDir}`);
    const stat = fs.statSync(srcAbs);
    const target = stat.isDirectory() ? destAbs : intoDir ? path.join(destAbs, path.basename(src)) : destAbs;
    fs.mkdirSync(stat.isDirectory() ? target : path.dirname(target), { recursive: true });
    fs.cpSync(srcAbs, target, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (abs) => !skip(path.relative(contextDir, abs)),
    });
  }
}

/** A .dockerignore's patterns as a predicate on context-relative paths (`**`, `*`, plain names). */
export function dockerignore(text: string): (rel: string) => boolean {
  const patterns = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((p) => {
      const re = p
        .replace(/^\/+|\/+$/g, '')
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .split('**/')
        .map((part) =>
          part
            .split('**')
            .map((seg) => seg.replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))
            .join('.*'),
        )
        .join('(?:.*/)?');
      return new RegExp(`^${re}(?:/.*)?$`);
    });
  return (rel) => rel !== '' && patterns.some((re) => re.test(rel.split(path.sep).join('/')));
}
