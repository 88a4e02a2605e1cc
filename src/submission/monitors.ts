import type { Caller } from '../domain/account.js';
import { canonicalTaskType } from '../domain/engine-catalog.js';
import {
  DEFAULT_SCHEDULE,
  MAX_SAMPLES,
  MAX_TASKS_PER_RUN,
  type MonitorBrand,
  type MonitorRecord,
  type MonitorSpec,
  type MonitorStatus,
  ScheduleError,
  checkSchedule,
  nextSlot,
} from '../domain/monitor.js';
import { RequestError, validationError } from '../domain/request-errors.js';
import { newTaskId, UUID_RE } from '../domain/task-id.js';
import type { ServiceConfig } from '../config/engine-config.js';
import type { Monitors, TaskQueue } from '../store/ports.js';
import { checkEngineServes } from './engine-check.js';

/**
 * A monitor's definition from a request: create, edit, look up, delete. The HTTP routes (src/http/routes/monitors.ts)
 * parse and answer; the rules are here: names made canonical, the engines able to serve, the schedule valid, the
 * run within its bound, the prompts of a prompt research taken from its monitor set, and when the next run falls.
 */

interface BrandBody {
  name: string;
  aliases?: string[];
  domains?: string[];
}

/** A create or edit body, as its schema lets it through. */
export interface MonitorBody {
  name?: string;
  prompts?: string[];
  promptResearchTaskId?: string;
  engines?: string[];
  countries?: string[];
  brand?: BrandBody;
  competitors?: BrandBody[];
  schedule?: { cron: string; timezone?: string };
  samples?: number;
  webhook?: { url: string } | null;
  status?: MonitorStatus;
}

/** What the monitor use cases need of the service. */
export interface MonitorDeps {
  store: { monitors: Pick<Monitors, 'insert' | 'get' | 'update' | 'delete'>; tasks: Pick<TaskQueue, 'get'> };
  config: Pick<ServiceConfig, 'engines'>;
  retentionMs: number;
  now: () => number;
}

export function monitorNotFound(id: string): RequestError {
  return new RequestError('RESOURCE_NOT_FOUND', `No monitor with id ${JSON.stringify(id)}.`, { id });
}

/** The caller's monitor by the id of a path; another account's is not found either (404, never 403). */
export async function monitorOr404(
  deps: Pick<MonitorDeps, 'store'>,
  id: string,
  caller: Caller,
): Promise<MonitorRecord> {
  const m = UUID_RE.test(id)
    ? await deps.store.monitors.get({ id: id.toLowerCase(), accountId: caller.accountId })
    : undefined;
  if (!m) throw monitorNotFound(id);
  return m;
}

/** A new active monitor of the caller's account, its first run at the schedule's next slot. */
export async function createMonitor(deps: MonitorDeps, caller: Caller, body: MonitorBody): Promise<MonitorRecord> {
  const now = deps.now();
  const spec = await specFrom(deps, caller, body, null);
  const monitor: MonitorRecord = {
    ...spec,
    id: newTaskId(now),
    accountId: caller.accountId,
    status: 'active',
    nextRunAt: nextSlot(spec.schedule, now),
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.monitors.insert(monitor);
  return monitor;
}

/** The caller's monitor `id` edited, paused or resumed by `body`. */
export async function editMonitor(
  deps: MonitorDeps,
  caller: Caller,
  id: string,
  body: MonitorBody,
): Promise<MonitorRecord> {
  const current = await monitorOr404(deps, id, caller);
  const now = deps.now();
  const spec = await specFrom(deps, caller, body, current);
  const status = body.status ?? current.status;
  const scheduleChanged = JSON.stringify(spec.schedule) !== JSON.stringify(current.schedule);
  // Resuming or a new schedule starts from the next slot (a paused time is not made up for).
  const nextRunAt =
    status === 'paused'
      ? null
      : current.status === 'paused' || scheduleChanged || current.nextRunAt === null
        ? nextSlot(spec.schedule, now)
        : current.nextRunAt;
  const monitor: MonitorRecord = { ...current, ...spec, status, nextRunAt, updatedAt: now };
  if (!(await deps.store.monitors.update(monitor))) throw monitorNotFound(id);
  return monitor;
}

/** Deletes the caller's monitor `id` and its runs, or 404. */
export async function deleteMonitor(deps: Pick<MonitorDeps, 'store'>, id: string, caller: Caller): Promise<void> {
  if (!UUID_RE.test(id) || !(await deps.store.monitors.delete({ id: id.toLowerCase(), accountId: caller.accountId })))
    throw monitorNotFound(id);
}

/** A monitor's definition from a body, over `base` when editing: names made canonical, limits and schedule checked. */
async function specFrom(
  deps: MonitorDeps,
  caller: Caller,
  body: MonitorBody,
  base: MonitorSpec | null,
): Promise<MonitorSpec> {
  if (body.prompts && body.promptResearchTaskId)
    throw validationError([{ field: 'prompts', message: 'give prompts or promptResearchTaskId, not both' }]);
  let prompts = body.prompts ? unique(body.prompts.map((p) => p.trim()).filter((p) => p !== '')) : undefined;
  let promptResearchTaskId = base?.promptResearchTaskId ?? null;
  if (body.promptResearchTaskId) {
    prompts = await monitorSetOf(deps, caller, body.promptResearchTaskId);
    promptResearchTaskId = body.promptResearchTaskId.toLowerCase();
  } else if (body.prompts) promptResearchTaskId = null;
  prompts ??= base?.prompts;
  if (!prompts || prompts.length === 0)
    throw validationError([{ field: 'prompts', message: 'give prompts or the id of a completed prompt research' }]);
  const engines = body.engines
    ? unique(body.engines.map((e) => canonicalTaskType(e) ?? e))
    : (base?.engines as string[]);
  // An engine that cannot serve at all would be left out of every run: refused here as a submit to it is.
  for (const e of body.engines ? engines : []) {
    const t = canonicalTaskType(e);
    if (t) checkEngineServes(deps.config.engines[t], t);
  }
  const countries = body.countries ? unique(body.countries.map((c) => c.toUpperCase())) : (base?.countries ?? ['US']);
  const spec: MonitorSpec = {
    name: body.name ?? base?.name ?? '',
    prompts,
    engines,
    countries,
    brand: body.brand ? brandOf(body.brand) : (base?.brand as MonitorBrand),
    competitors: body.competitors ? body.competitors.map(brandOf) : (base?.competitors ?? []),
    // An edit that gives only the expression keeps the monitor's time zone.
    schedule: body.schedule
      ? { cron: body.schedule.cron.trim(), timezone: body.schedule.timezone ?? base?.schedule.timezone ?? 'UTC' }
      : (base?.schedule ?? { ...DEFAULT_SCHEDULE }),
    samples: body.samples ?? base?.samples ?? 1,
    webhookUrl: body.webhook === undefined ? (base?.webhookUrl ?? null) : (body.webhook?.url ?? null),
    promptResearchTaskId,
  };
  if (!Number.isInteger(spec.samples) || spec.samples < 1 || spec.samples > MAX_SAMPLES)
    throw validationError([{ field: 'samples', message: `must be an integer from 1 to ${MAX_SAMPLES}` }]);
  try {
    checkSchedule(spec.schedule, deps.now());
  } catch (e) {
    if (e instanceof ScheduleError) throw validationError([{ field: e.field, message: e.message }]);
    throw e;
  }
  // The contract's bound counts prompt-by-engine tasks (as prompt research's monitorSize does), each sample a task;
  // each country is the same set asked in another region.
  const n = spec.prompts.length * spec.engines.length * spec.samples;
  if (n > MAX_TASKS_PER_RUN)
    throw new RequestError(
      'VALIDATION_ERROR',
      `A run would ask ${n} prompt-by-engine tasks (samples included) in each country; at most ${MAX_TASKS_PER_RUN}.`,
      [
        {
          field: spec.samples > 1 ? 'samples' : 'prompts',
          message:
            `${spec.prompts.length} prompts × ${spec.engines.length} engines × ${spec.samples} samples = ${n}, ` +
            `over ${MAX_TASKS_PER_RUN}`,
        },
      ],
      422,
    );
  return spec;
}

function brandOf(b: BrandBody): MonitorBrand {
  return { name: b.name.trim(), aliases: unique(b.aliases ?? []), domains: unique(b.domains ?? []) };
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** The prompts of a completed prompt research of the caller: its monitor set, in order. */
async function monitorSetOf(deps: MonitorDeps, caller: Caller, id: string): Promise<string[]> {
  const task = UUID_RE.test(id)
    ? await deps.store.tasks.get({ id: id.toLowerCase(), notBefore: deps.now() - deps.retentionMs })
    : undefined;
  const set = (task?.result as { monitorSet?: { items?: Array<{ text?: unknown }> } } | null)?.monitorSet;
  const prompts = (set?.items ?? []).map((i) => i.text).filter((t): t is string => typeof t === 'string');
  if (
    !task ||
    task.accountId !== caller.accountId ||
    task.taskType !== 'PROMPT_RESEARCH' ||
    task.status !== 'COMPLETED' ||
    prompts.length === 0
  )
    throw validationError([
      {
        field: 'promptResearchTaskId',
        message: 'no completed prompt research with a monitor set under this id (unknown, expired or still running)',
      },
    ]);
  return prompts;
}

/** The most competitors a monitor takes (the create schema's bound). */
const MAX_COMPETITORS = 20;

/** A name as names are compared: NFKC, case and spacing ignored. */
const nameKey = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Tracks one more competitor (a name the monitor's answers named without it tracking it, §6.8): added to the
 * monitor's competitors as an edit is, from its next run. 409 COMPETITOR_EXISTS when the brand or a competitor
 * already has the name or alias; 422 over 20 competitors.
 */
export async function addCompetitor(
  deps: MonitorDeps,
  caller: Caller,
  id: string,
  body: BrandBody,
): Promise<MonitorRecord> {
  const current = await monitorOr404(deps, id, caller);
  const asked = [body.name, ...(body.aliases ?? [])].map(nameKey);
  const taken = [current.brand, ...current.competitors].find((b) =>
    [b.name, ...b.aliases].some((n) => asked.includes(nameKey(n))),
  );
  if (taken)
    throw new RequestError('COMPETITOR_EXISTS', `The monitor already tracks ${JSON.stringify(taken.name)}.`, {
      name: taken.name,
    });
  if (current.competitors.length >= MAX_COMPETITORS)
    throw new RequestError(
      'VALIDATION_ERROR',
      `The monitor has ${MAX_COMPETITORS} competitors, the most it takes.`,
      [{ field: 'competitors', message: `at most ${MAX_COMPETITORS}` }],
      422,
    );
  return editMonitor(deps, caller, id, { competitors: [...current.competitors, body] });
}
