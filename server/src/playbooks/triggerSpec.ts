// The `approval` and `on` fields of a Playbook (mission-control's PlaybookApproval and PlaybookTrigger):
// their schemas and the apply-time checks that need no database — event names per resource kind,
// CEL filters that compile, schedules that parse, webhook paths and their authentication. The
// checks that read the database (approvers exist, a webhook path is free) are in references.ts.
import { z } from 'zod';
import { envValueSchema, type EnvValue } from '../connections/envValue.js';
import { isDuration } from '../connections/duration.js';
import { compileCel } from '../expr/index.js';
import { parseSchedule } from '../jobs/schedule.js';
import type { Path } from '../resources/yaml.js';

export interface PlaybookApproval {
  type: 'any' | 'all';
  approvers: { people: string[]; teams: string[] };
}

export interface TriggerEvent {
  event: string;
  filter?: string;
  labels?: Record<string, string>;
}

export type TriggerKind = 'check' | 'canary' | 'component' | 'config';
export const TRIGGER_KINDS: readonly TriggerKind[] = ['check', 'canary', 'component', 'config'];

export interface WebhookAuth {
  basic?: { username: EnvValue; password: EnvValue };
  github?: { token: EnvValue };
  svix?: { secret: EnvValue; verifyTimestamp?: string };
  jwt?: { jwksUri: string };
}

export interface PlaybookTriggers {
  check?: TriggerEvent[];
  canary?: TriggerEvent[];
  component?: TriggerEvent[];
  config?: TriggerEvent[];
  schedule?: { schedule: string }[];
  webhook?: { path: string; authentication?: WebhookAuth };
}

const HEALTH_EVENTS = ['healthy', 'unhealthy', 'warning', 'unknown'];
/** The event words each kind of trigger listens for (mission-control's names). */
export const TRIGGER_EVENTS: Record<TriggerKind, readonly string[]> = {
  check: ['failed', 'passed'],
  canary: ['failed', 'passed'],
  component: HEALTH_EVENTS,
  config: [...HEALTH_EVENTS, 'created', 'updated', 'deleted'],
};

const strictMessage =
  (fields: string) =>
  (issue: { code: string; keys?: string[] }): string | undefined =>
    issue.code === 'unrecognized_keys' ? `${(issue.keys ?? []).join(', ')}: unknown field (use ${fields})` : undefined;

const personOrTeamList = z.array(z.string().min(1, 'an empty name')).optional();

export const approvalSchema = z.strictObject(
  {
    type: z.enum(['any', 'all'], { error: 'type is any (one approval is enough) or all' }).optional(),
    approvers: z.strictObject(
      { people: personOrTeamList, teams: personOrTeamList },
      { error: strictMessage('people and teams') },
    ),
  },
  { error: strictMessage('type and approvers') },
);

const triggerEventSchema = z.strictObject(
  {
    event: z.string({ error: 'event is required' }).min(1, 'event is required'),
    filter: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
  },
  { error: strictMessage('event, filter and labels') },
);

const webhookAuthSchema = z.strictObject(
  {
    basic: z.strictObject({ username: envValueSchema, password: envValueSchema }).optional(),
    github: z.strictObject({ token: envValueSchema }).optional(),
    svix: z
      .strictObject({
        secret: envValueSchema,
        verifyTimestamp: z
          .string()
          .refine((s) => isDuration(s), 'not a duration (examples: 5m, 1h)')
          .optional(),
      })
      .optional(),
    jwt: z.strictObject({ jwksUri: z.url({ error: 'jwksUri must be a URL' }) }).optional(),
  },
  { error: strictMessage('basic, github, svix or jwt') },
);

export const triggersSchema = z.strictObject(
  {
    check: z.array(triggerEventSchema).optional(),
    canary: z.array(triggerEventSchema).optional(),
    component: z.array(triggerEventSchema).optional(),
    config: z.array(triggerEventSchema).optional(),
    schedule: z
      .array(z.strictObject({ schedule: z.string({ error: 'schedule is required (cron or @every)' }) }))
      .optional(),
    webhook: z
      .strictObject({
        path: z
          .string({ error: 'path is required' })
          .regex(/^[A-Za-z0-9][A-Za-z0-9._~/-]{0,199}$/, 'path: letters, digits, . _ ~ - and /, not starting with /'),
        authentication: webhookAuthSchema.optional(),
      })
      .optional(),
  },
  { error: strictMessage('check, canary, component, config, schedule or webhook') },
);

type Report = (path: Path, message: string) => void;

/** Checks that need no database; problems are reported with their path under spec. */
export function checkApproval(approval: z.infer<typeof approvalSchema>, report: Report): PlaybookApproval {
  const people = approval.approvers.people ?? [];
  const teams = approval.approvers.teams ?? [];
  if (!people.length && !teams.length)
    report(
      ['spec', 'approval', 'approvers'],
      'name at least one approver (people: emails or ids, teams: names or ids)',
    );
  return { type: approval.type ?? 'any', approvers: { people, teams } };
}

export function checkTriggers(on: z.infer<typeof triggersSchema>, report: Report): PlaybookTriggers {
  for (const kind of TRIGGER_KINDS) {
    on[kind]?.forEach((t, i) => {
      const at: Path = ['spec', 'on', kind, i];
      if (!TRIGGER_EVENTS[kind].includes(t.event))
        report([...at, 'event'], `"${t.event}" is not a ${kind} event (one of ${TRIGGER_EVENTS[kind].join(', ')})`);
      if (t.filter !== undefined) {
        try {
          compileCel(t.filter);
        } catch (e) {
          report([...at, 'filter'], (e as Error).message);
        }
      }
    });
  }
  on.schedule?.forEach((s, i) => {
    try {
      parseSchedule(s.schedule, undefined);
    } catch (e) {
      report(['spec', 'on', 'schedule', i, 'schedule'], (e as Error).message);
    }
  });
  const auth = on.webhook?.authentication;
  if (auth && Object.values(auth).filter(Boolean).length > 1)
    report(['spec', 'on', 'webhook', 'authentication'], 'choose one of basic, github, svix and jwt');
  return on as PlaybookTriggers;
}

/** Whether a playbook has any automatic trigger of this kind of event. */
export function hasEventTriggers(on: PlaybookTriggers | undefined): boolean {
  return !!on && TRIGGER_KINDS.some((k) => (on[k]?.length ?? 0) > 0);
}
