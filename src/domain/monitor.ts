import { Cron } from 'croner';
import { targetHostOf } from './webhook-target.js';

/**
 * Visibility monitors: a set of prompts asked on engines in countries on a schedule, with the brand (and
 * its competitors) whose visibility the runs measure. This module holds the monitor's shape and its schedule; the
 * store keeps it (store/monitors.ts), its use cases take it (submission/monitors.ts).
 */

/** The contract's bound on a monitor: at most 200 prompt-by-engine tasks (samples included) in each country. */
export const MAX_TASKS_PER_RUN = 200;
/** How many times a run asks each prompt on each engine in each country, at most. */
export const MAX_SAMPLES = 10;
/** The schedule when none is given: every day at midnight UTC. */
export const DEFAULT_SCHEDULE = Object.freeze({ cron: '0 0 * * *', timezone: 'UTC' });

export interface MonitorBrand {
  name: string;
  aliases: string[];
  /** The brand's own sites: citations of them count as the brand's (subdomains included). */
  domains: string[];
}

export interface MonitorSchedule {
  /** Five or six fields (croner's syntax, seconds optional). */
  cron: string;
  /** An IANA time zone, e.g. `Asia/Seoul`. */
  timezone: string;
}

export type MonitorStatus = 'active' | 'paused';

/** What a monitor asks and measures: its definition, as created or edited. */
export interface MonitorSpec {
  name: string;
  prompts: string[];
  engines: string[];
  countries: string[];
  brand: MonitorBrand;
  competitors: MonitorBrand[];
  schedule: MonitorSchedule;
  /**
   * How many times each prompt is asked per engine and country in a run (1–10): answers vary between asks, and the
   * figures' intervals narrow with samples (docs/analysis.md §6.6).
   */
  samples: number;
  /** Where the monitor's new signals are posted after a run (signed, as a task's webhook), or null for none. */
  webhookUrl: string | null;
  /** The completed prompt-research task whose monitor set gave the prompts, if one did. */
  promptResearchTaskId: string | null;
}

export interface MonitorRecord extends MonitorSpec {
  id: string;
  accountId: string;
  status: MonitorStatus;
  /** The next scheduled time (ms); null while paused. */
  nextRunAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The definition part of a monitor: what its row stores as `spec`, and what a run keeps of it. */
export function monitorSpecOf(m: MonitorRecord): MonitorSpec {
  const { id: _id, accountId: _a, status: _s, nextRunAt: _n, createdAt: _c, updatedAt: _u, ...spec } = m;
  return spec;
}

/** Tasks one run submits: every prompt on every engine in every country, `samples` times. */
export function tasksPerRun(s: Pick<MonitorSpec, 'prompts' | 'engines' | 'countries' | 'samples'>): number {
  return s.prompts.length * s.engines.length * s.countries.length * s.samples;
}

/** A spec as stored before monitors had samples and a webhook: one sample, no webhook. */
export function withDefaults<T extends Omit<MonitorSpec, 'samples' | 'webhookUrl'> & Partial<MonitorSpec>>(
  s: T,
): T & Pick<MonitorSpec, 'samples' | 'webhookUrl'> {
  return { ...s, samples: s.samples ?? 1, webhookUrl: s.webhookUrl ?? null };
}

/** A schedule that cannot be used: which part, and why (the route answers 400 VALIDATION_ERROR with it). */
export class ScheduleError extends Error {
  constructor(
    readonly field: 'schedule.cron' | 'schedule.timezone',
    message: string,
  ) {
    super(message);
  }
}

/** The schedule as croner reads it; throws ScheduleError for a bad expression or an unknown time zone. */
function cronOf(s: MonitorSchedule): Cron {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: s.timezone });
  } catch {
    throw new ScheduleError('schedule.timezone', `unknown time zone ${JSON.stringify(s.timezone)}`);
  }
  try {
    return new Cron(s.cron, { timezone: s.timezone, paused: true, mode: '5-or-6-parts' });
  } catch (e) {
    throw new ScheduleError('schedule.cron', `not a cron expression: ${(e as Error).message}`);
  }
}

/**
 * Scheduled runs at least this far apart: a monitor is a daily (or hourly) habit, each run may ask 200 tasks in each
 * country, and a run of that size takes minutes, so closer slots would pile runs up. To see a run at once, start
 * one by hand (`POST /v1/monitors/{id}/runs`) rather than setting the schedule to the next minute.
 */
const MIN_RUN_GAP_MS = 3600_000;

/** Checks a schedule; throws ScheduleError. A schedule that never fires, or fires too often, is refused. */
export function checkSchedule(s: MonitorSchedule, now: number): void {
  const next = cronOf(s)
    .nextRuns(12, new Date(now))
    .map((d) => d.getTime());
  if (next.length === 0) throw new ScheduleError('schedule.cron', 'the schedule never fires');
  for (let i = 1; i < next.length; i++)
    if ((next[i] as number) - (next[i - 1] as number) < MIN_RUN_GAP_MS)
      throw new ScheduleError(
        'schedule.cron',
        'runs must be at least an hour apart (to run one now: POST /v1/monitors/{id}/runs)',
      );
}

/** The first scheduled time strictly after `after` (ms), or null when there is none. */
export function nextSlot(s: MonitorSchedule, after: number): number | null {
  return cronOf(s).nextRun(new Date(after))?.getTime() ?? null;
}

/**
 * The latest scheduled time at or before `now`: the slot a due monitor runs for. Slots missed while the service was
 * down collapse into this one, so a monitor runs once on start, not once per missed slot.
 */
export function dueSlot(s: MonitorSchedule, now: number): number | null {
  const prev = cronOf(s).previousRuns(1, new Date(now + 1))[0];
  return prev ? prev.getTime() : null;
}

/** A monitor as the API shows it. */
export function monitorView(m: MonitorRecord) {
  return {
    id: m.id,
    name: m.name,
    status: m.status,
    prompts: m.prompts,
    promptResearchTaskId: m.promptResearchTaskId,
    engines: m.engines,
    countries: m.countries,
    brand: m.brand,
    competitors: m.competitors,
    schedule: { ...m.schedule, nextRunAt: m.nextRunAt === null ? null : new Date(m.nextRunAt).toISOString() },
    samples: m.samples,
    // The host only, as a task's webhook is shown: a URL may carry a token or credentials.
    webhook: m.webhookUrl === null ? null : { targetHost: targetHostOf(m.webhookUrl) },
    tasksPerRun: tasksPerRun(m),
    createdAt: new Date(m.createdAt).toISOString(),
    updatedAt: new Date(m.updatedAt).toISOString(),
  };
}

export type MonitorRunStatus = 'starting' | 'running' | 'completed';

/** What started a run: a slot of its schedule, or a request to run it now (`POST /v1/monitors/{id}/runs`). */
export type MonitorRunTrigger = 'schedule' | 'manual';

/** Where an answer names a tracked brand: one credited occurrence (offsets in its text), its brand and role. */
export interface MentionSpan {
  start: number;
  end: number;
  brand: string;
  role: 'brand' | 'competitor';
}

/** One task's outcome as a run keeps it, beyond the tasks' retention. */
export interface MonitorRunResult {
  taskId: string;
  prompt: string;
  engine: string;
  country: string | null;
  /** Which ask of the prompt on this engine and country it was, from 0 (absent from runs saved before samples). */
  sample?: number;
  status: 'COMPLETED' | 'FAILED';
  text: string;
  sources: string[];
  /** The searches the engine ran for this answer, where it says (docs/contract.md#answer-signals). */
  searchQueries?: string[];
  /** Whether the engine searched, where it says. */
  searchTriggered?: boolean;
  /** The pages the engine read but did not cite, where it lists them. */
  retrieved?: string[];
  error: string | null;
  /**
   * Where the answer names a tracked brand, as the figures counted it (offsets in `text`); absent from runs saved
   * before they were kept, for which it is computed when read.
   */
  mentions?: MentionSpan[];
  /** The monitored brand's rank by first mention among the brands named, or null. */
  position?: number | null;
}

/** A monitor's run for one scheduled time. Its tasks form a batch (`batchId`) submitted through the normal queue. */
export interface MonitorRunRecord {
  id: string;
  monitorId: string;
  accountId: string;
  slotAt: number;
  status: MonitorRunStatus;
  batchId: string;
  /** The monitor's definition when the slot was taken: the run asks and measures what it said then. */
  spec: MonitorSpec;
  /** Tasks asked: prompts × engines × countries × samples, less those an engine could not serve at the time. */
  tasks: number;
  /** What started it; a manual run's `slotAt` is when it was asked for. */
  trigger: MonitorRunTrigger;
  /** The saved answers once the run has completed (read only when asked: `Store.monitorRuns`). */
  results: MonitorRunResult[] | null;
  /** The saved answers by status once the run has completed, so that its progress is shown without reading them. */
  counts: { completed: number; failed: number } | null;
  /** Figures per engine and country (analysis/visibility), keyed `ENGINE/COUNTRY`. */
  metrics: Record<string, unknown> | null;
  createdAt: number;
  completedAt: number | null;
}
