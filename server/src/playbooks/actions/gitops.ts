// `gitops`: clones `repo.url` (or a git connection's URL) at `repo.base` (default main), checks out
// `repo.branch`, writes `files` (content `$delete` removes), applies `patches` (yq subset, JSON merge
// patch, JSON patch: ../gitPatch.ts), commits as `commit.author <commit.email>`, pushes the branch,
// and with `pr` opens a pull request on GitHub or GitLab (gitHosting.ts). Credentials come from
// `repo.connection` (git, github, gitlab, http) or repo.username/password, and never reach argv or logs
// (gitRepo.ts). Result: {repo, base, branch, commit, files, pr_url?, pr_number?, logs}.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import { envValueSchema } from '../../connections/envValue.js';
import { SpecError } from '../../connections/errors.js';
import { resolveField, sanitizeUrl, type ResolvedConnection } from '../../connections/resolve.js';
import { applyPatch, parseYq, PatchError, type JsonPatchOperation, type Patch } from '../gitPatch.js';
import { connectionContext, type ActionContext, type PlaybookAction } from './action.js';
import { HostingError, openPullRequest, type HostingService } from './gitHosting.js';
import { GitError, GitWorkspace, splitUrlCredentials, type GitCredentials } from './gitRepo.js';

export const DELETE_DIRECTIVE = '$delete';

const strict = <T extends z.ZodRawShape>(shape: T, fields: string) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: not supported here (${fields})` : undefined,
  });

const jsonPatchOp = strict(
  {
    op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test'], {
      error: 'op must be add, remove, replace, move, copy or test',
    }),
    path: z.string({ error: 'path is required (a JSON pointer such as /spec/replicas)' }),
    from: z.string().optional(),
    value: z.unknown().optional(),
  },
  'op, path, from, value',
);

const patchSchema = strict(
  {
    path: z.string({ error: 'path is required (a file or a glob in the repository)' }).min(1, 'path is required'),
    yq: z.string().optional(),
    jq: z.string().optional(),
    mergePatch: z.union([z.string(), z.looseObject({})]).optional(),
    jsonPatch: z.union([z.string(), z.array(jsonPatchOp)]).optional(),
    if: z.string().optional(),
  },
  'path, yq, jq, mergePatch, jsonPatch, if',
).superRefine((p, issue) => {
  const kinds = (['yq', 'jq', 'mergePatch', 'jsonPatch'] as const).filter((k) => p[k] !== undefined);
  if (kinds.length !== 1)
    issue.addIssue({
      code: 'custom',
      path: kinds[1] ? [kinds[1]] : [],
      message: `a patch has exactly one of yq, jq, mergePatch or jsonPatch${kinds.length ? ` (found ${kinds.join(' and ')})` : ''}`,
    });
  for (const k of ['yq', 'jq'] as const) {
    const text = p[k];
    if (text === undefined || text.includes('{{')) continue;
    try {
      parseYq(text);
    } catch (e) {
      issue.addIssue({ code: 'custom', path: [k], message: (e as Error).message });
    }
  }
});

const schema = strict(
  {
    repo: strict(
      {
        url: z.string().optional(),
        connection: z.string().optional(),
        base: z.string().optional(),
        branch: z.string().optional(),
        type: z.string().optional(),
        username: envValueSchema.optional(),
        password: envValueSchema.optional(),
        skipExisting: z.boolean().optional(),
        force: z.boolean().optional(),
      },
      'url, connection, base, branch, type, username, password, skipExisting, force',
    ),
    commit: strict(
      {
        author: z.string({ error: 'author is required' }).min(1, 'author is required'),
        email: z.string({ error: 'email is required' }).min(1, 'email is required'),
        message: z.string({ error: 'message is required' }).min(1, 'message is required'),
      },
      'author, email, message',
    ),
    pr: strict(
      {
        title: z.string({ error: 'title is required' }).min(1, 'title is required'),
        body: z.string().optional(),
        tags: z.array(z.string()).optional(),
        autoMerge: z.never({ error: 'autoMerge is not supported yet' }).optional(),
      },
      'title, body, tags',
    ).optional(),
    patches: z.array(patchSchema).optional(),
    files: z
      .array(
        strict(
          {
            path: z.string({ error: 'path is required' }).min(1, 'path is required'),
            content: z.string({ error: `content is required (${DELETE_DIRECTIVE} removes the file)` }),
          },
          'path, content',
        ),
      )
      .optional(),
  },
  'repo, commit, pr, patches, files',
).superRefine((s, issue) => {
  if (!s.repo.url && !s.repo.connection)
    issue.addIssue({
      code: 'custom',
      path: ['repo', 'url'],
      message: 'url is required (or a git connection that has one)',
    });
  if (!s.patches?.length && !s.files?.length)
    issue.addIssue({ code: 'custom', path: ['files'], message: 'a gitops action needs files or patches to change' });
  const type = s.repo.type?.toLowerCase();
  if (type && !type.includes('{{') && !['github', 'gitlab', 'git'].includes(type))
    issue.addIssue({ code: 'custom', path: ['repo', 'type'], message: 'type must be github, gitlab or git' });
});
export type GitopsActionSpec = z.infer<typeof schema>;

class GitopsError extends Error {}

/** A path inside the working copy, never into .git or outside it. */
function inside(dir: string, rel: string): string {
  const full = path.resolve(dir, rel);
  const relative = path.relative(dir, full);
  if (path.isAbsolute(rel) || relative.startsWith('..') || relative === '' || relative.split(path.sep)[0] === '.git')
    throw new GitopsError(`${rel}: a path must be relative and inside the repository (not .git)`);
  return full;
}

const matchFiles = (dir: string, pattern: string) =>
  glob(pattern, { cwd: dir, onlyFiles: true, dot: true, ignore: ['.git/**'], expandDirectories: false });

function patchOf(p: NonNullable<GitopsActionSpec['patches']>[number]): Patch {
  const text = p.yq ?? p.jq;
  if (text !== undefined) return { yq: text };
  const parse = (t: string, what: string): unknown => {
    try {
      return parseYaml(t) as unknown;
    } catch (e) {
      throw new GitopsError(`${p.path}: ${what} is not valid YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
    }
  };
  if (p.mergePatch !== undefined)
    return { merge: typeof p.mergePatch === 'string' ? parse(p.mergePatch, 'mergePatch') : p.mergePatch };
  const ops = typeof p.jsonPatch === 'string' ? parse(p.jsonPatch, 'jsonPatch') : p.jsonPatch;
  if (!Array.isArray(ops)) throw new GitopsError(`${p.path}: jsonPatch must be a list of operations`);
  return { jsonPatch: ops as JsonPatchOperation[] };
}

async function applyChanges(dir: string, spec: GitopsActionSpec, log: string[]): Promise<void> {
  for (const f of spec.files ?? []) {
    if (f.content.trim() === DELETE_DIRECTIVE) {
      const matches = await matchFiles(dir, f.path);
      for (const m of matches) await rm(inside(dir, m), { force: true });
      log.push(`delete ${f.path} (${matches.length} file${matches.length === 1 ? '' : 's'})`);
      continue;
    }
    const full = inside(dir, f.path);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, f.content);
    log.push(`write ${f.path}`);
  }
  for (const p of spec.patches ?? []) {
    const when = p.if?.trim().toLowerCase();
    if (when === 'false') {
      log.push(`skip patch of ${p.path} (if is false)`);
      continue;
    }
    if (when && when !== 'true')
      throw new GitopsError(`${p.path}: if must give true or false, got ${JSON.stringify(p.if)}`);
    const matches = await matchFiles(dir, p.path);
    if (!matches.length) throw new GitopsError(`${p.path} does not exist in the repository`);
    const patch = patchOf(p);
    for (const m of matches) {
      const full = inside(dir, m);
      try {
        await writeFile(full, applyPatch(m, await readFile(full, 'utf8'), patch));
      } catch (e) {
        if (e instanceof PatchError) throw new GitopsError(`${m}: ${e.message}`);
        throw e;
      }
      log.push(`patch ${m}`);
    }
  }
}

interface Plan {
  url: string;
  creds: GitCredentials;
  base: string;
  branch: string;
  pr?: { service: HostingService; apiUrl: string; token: string };
}

const KNOWN_CONNECTIONS = ['git', 'github', 'gitlab', 'http'];

/** Where to clone from and with what, and how a pull request would be opened. */
async function plan(spec: GitopsActionSpec, ctx: ActionContext): Promise<Plan> {
  const cctx = connectionContext(ctx);
  let conn: ResolvedConnection | undefined;
  if (spec.repo.connection) {
    conn = await cctx.connection(spec.repo.connection);
    if (!conn) throw new GitopsError(`connection ${spec.repo.connection} was not found`);
    if (!KNOWN_CONNECTIONS.includes(conn.type.toLowerCase()))
      throw new GitopsError(
        `connection ${spec.repo.connection} is a ${conn.type} connection: gitops needs a git, github or gitlab one`,
      );
  }
  const connType = conn?.type.toLowerCase();
  const hosted = connType === 'github' || connType === 'gitlab';
  const rawUrl = spec.repo.url || (hosted ? '' : (conn?.url ?? ''));
  if (!rawUrl)
    throw new GitopsError(`repo.url is required: the ${connType} connection gives the API, not the repository`);
  const token = hosted ? (conn?.password ?? undefined) : undefined;
  const creds: GitCredentials = {
    username: hosted ? (connType === 'github' ? 'x-access-token' : 'oauth2') : (conn?.username ?? undefined),
    password: token ?? conn?.password ?? undefined,
    sshKey: connType === 'git' ? (conn?.certificate ?? undefined) : undefined,
    insecureTls: conn?.insecureTls ?? false,
  };
  const username = await resolveField(cctx, 'repo.username', spec.repo.username);
  const password = await resolveField(cctx, 'repo.password', spec.repo.password);
  if (username) creds.username = username;
  if (password) creds.password = password;
  const split = splitUrlCredentials(rawUrl.trim(), creds);
  const base = spec.repo.base || conn?.properties.ref || 'main';
  const branch = spec.repo.branch || base;
  const result: Plan = { url: split.url, creds: split.creds, base, branch };
  if (!spec.pr) return result;
  const declared = spec.repo.type?.toLowerCase();
  const byHost = /github\.com/i.test(split.url) ? 'github' : /gitlab\.com/i.test(split.url) ? 'gitlab' : undefined;
  const service =
    (declared === 'github' || declared === 'gitlab' ? declared : undefined) ?? (hosted ? connType : byHost);
  if (service !== 'github' && service !== 'gitlab')
    throw new GitopsError(
      'pr: a pull request is opened through a github or gitlab connection (or repo.type github|gitlab)',
    );
  if (branch === base)
    throw new GitopsError(`pr: repo.branch must differ from repo.base (${base}) to open a pull request`);
  const prToken = token ?? split.creds.password;
  if (!prToken) throw new GitopsError(`pr: opening a ${service} pull request needs a token (the connection's)`);
  result.pr = { service, apiUrl: (connType === service ? conn?.url : undefined) ?? '', token: prToken };
  return result;
}

async function run(spec: GitopsActionSpec, ctx: ActionContext) {
  const p = await plan(spec, ctx);
  const shownUrl = sanitizeUrl(p.url);
  const result: Record<string, unknown> = { repo: shownUrl, base: p.base, branch: p.branch };
  const ws = await GitWorkspace.create(p.creds, ctx.signal);
  try {
    await ws.clone(p.url, p.base);
    const onOrigin = p.branch !== p.base && (await ws.remoteHasBranch(p.branch));
    if (onOrigin && spec.repo.skipExisting) {
      return {
        result: { ...result, commit: null, files: [], skipped: `${p.branch} already exists`, logs: ws.log.join('\n') },
      };
    }
    if (p.branch !== p.base) await ws.checkoutBranch(p.branch, onOrigin, spec.repo.force ?? false);
    await applyChanges(ws.dir, spec, ws.log);
    const files = await ws.stageAll();
    if (!files.length)
      return {
        result: {
          ...result,
          commit: null,
          files,
          message: 'nothing changed: no commit, no push',
          logs: ws.log.join('\n'),
        },
      };
    const sha = await ws.commit(spec.commit.message, { name: spec.commit.author, email: spec.commit.email });
    await ws.push(p.branch, spec.repo.force ?? false);
    Object.assign(result, { commit: sha, files });
    if (p.pr) {
      const pr = await openPullRequest({
        ...p.pr,
        repoUrl: p.url,
        head: p.branch,
        base: p.base,
        title: spec.pr!.title,
        body: spec.pr!.body ?? spec.commit.message,
        tags: spec.pr!.tags ?? [],
        signal: ctx.signal,
      });
      ws.log.push(`${pr.existing ? 'found open' : 'opened'} pull request ${pr.url}`);
      Object.assign(result, { pr_url: pr.url, pr_number: pr.number, ...(pr.existing ? { pr_existing: true } : {}) });
    }
    return { result: { ...result, logs: ws.log.join('\n') } };
  } catch (e) {
    // What was done so far (a pushed commit whose pull request failed) stays in the result.
    if (isKnown(e)) return { result: { ...result, logs: ws.log.join('\n') }, error: (e as Error).message };
    throw e;
  } finally {
    await ws.dispose();
  }
}

const isKnown = (e: unknown) =>
  e instanceof GitopsError || e instanceof GitError || e instanceof HostingError || e instanceof SpecError;

export const gitopsAction: PlaybookAction<GitopsActionSpec> = {
  type: 'gitops',
  schema,
  async run(spec, ctx) {
    try {
      return await run(spec, ctx);
    } catch (e) {
      if (isKnown(e)) return { result: {}, error: (e as Error).message };
      throw e;
    }
  },
};
