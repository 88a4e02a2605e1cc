import type { Logger } from 'pino';
import { factsFor, savedMentions, trackBrands } from '../analysis/visibility/index.js';
import type { NewBatch } from '../domain/batch.js';
import {
  type MonitorRecord,
  type MonitorRunRecord,
  type MonitorRunTrigger,
  monitorSpecOf,
  tasksPerRun,
} from '../domain/monitor.js';
import type { NewTask } from '../domain/task.js';
import { RequestError } from '../domain/request-errors.js';
import { monitorNotFound } from '../submission/monitors.js';
import type { TaskType } from '../domain/task-types.js';
import { newTaskId } from '../domain/task-id.js';
import type { Batches, Monitors, TaskQueue } from '../store/ports.js';
import { envelopeToTask, type SubmissionContext } from '../submission/envelope.js';

/**
 * A monitor run's making and submission, shared by the scheduler (a scheduled slot) and the run-now route (a run
 * started by hand): both make the same run, with the monitor's definition as it is now, and submit the same tasks
 * through the normal queue, so a run started by hand is limited (the monitor's size bound) and counted (usage, per
 * finished task) exactly as a scheduled one. Also a run as the API shows it (`monitorRunView`).
 */

/** A new run of `m` for the time `slotAt`, in state `starting` (its tasks are not made yet). */
export function newMonitorRun(
  m: MonitorRecord,
  slotAt: number,
  now: number,
  trigger: MonitorRunTrigger,
): MonitorRunRecord {
  return {
    id: newTaskId(now),
    monitorId: m.id,
    accountId: m.accountId,
    slotAt,
    status: 'starting',
    batchId: newTaskId(now),
    spec: monitorSpecOf(m),
    tasks: tasksPerRun(m),
    trigger,
    results: null,
    counts: null,
    metrics: null,
    createdAt: now,
    completedAt: null,
  };
}

/** The ports a run's start writes through: its tasks, their batch and the run. */
export interface RunPorts {
  tasks: Pick<TaskQueue, 'insert'>;
  batches: Pick<Batches, 'get'>;
  monitors: Pick<Monitors, 'advanceRun'>;
}

export interface RunSubmission {
  store: RunPorts;
  submission: SubmissionContext;
  /** Task retention (an idempotency key older than this may be taken over). */
  retentionMs: number;
  /** How far apart the samples of one prompt are due (Settings.monitorSampleSpacingMs). */
  sampleSpacingMs: number;
  now: () => number;
  log: Logger;
}

/**
 * Gives a `starting` run its tasks, as one batch, from the definition the run was made with, and moves it to
 * `running`; a batch already made (a pass cut short after it) is not made again. Returns the tasks submitted.
 */
export async function submitMonitorRun(o: RunSubmission, run: MonitorRunRecord): Promise<NewTask[]> {
  const batchRef = { id: run.batchId, accountId: run.accountId, notBefore: 0 };
  let batch = await o.store.batches.get(batchRef);
  let made: NewTask[] = [];
  if (!batch) {
    made = tasksOf(o, run);
    const nb: NewBatch = {
      id: run.batchId,
      size: run.tasks,
      webhookUrl: null,
      createdAt: o.now(),
      accountId: run.accountId,
    };
    try {
      await o.store.tasks.insert({ tasks: made, notBefore: o.now() - o.retentionMs, batch: nb });
    } catch (e) {
      // Another process made the batch first (the same id): what matters is that it exists.
      if (!(await o.store.batches.get(batchRef))) throw e;
      made = [];
    }
    batch = await o.store.batches.get(batchRef);
  }
  // `tasks` becomes what was asked: those an engine could not serve at the time are not waited for.
  await o.store.monitors.advanceRun({
    id: run.id,
    from: 'starting',
    to: { status: 'running', tasks: batch?.total ?? 0 },
  });
  return made;
}

/**
 * The run's tasks, each prompt on each engine in each country `samples` times. The samples are the innermost
 * loop, so a task's batch index modulo `samples` is its sample (`sampleOf`). Sample k is due k spacings after the
 * run starts: asked in one minute, the samples of a prompt would share an exit address and a moment of the engine,
 * and differ less than a day's asks do.
 */
function tasksOf(o: RunSubmission, run: MonitorRunRecord): NewTask[] {
  const tasks: NewTask[] = [];
  const samples = run.spec.samples;
  const start = o.now();
  let index = 0;
  for (const prompt of run.spec.prompts)
    for (const engine of run.spec.engines)
      for (const country of run.spec.countries)
        for (let sample = 0; sample < samples; sample++) {
          const i = index++;
          try {
            // A monitor's answers are the ones a brand's figures rest on: each keeps its evidence (artefacts).
            const payload = { prompt, country, include: { artifacts: true } };
            const task = envelopeToTask(
              { taskType: engine, payload, idempotencyKey: `monitor:${run.id}:${i}` },
              o.submission,
              run.accountId,
            );
            task.batch = { id: run.batchId, index: i };
            if (sample > 0) task.availableAt = start + sample * o.sampleSpacingMs;
            tasks.push(task);
          } catch (e) {
            // A region the engine cannot serve now: the run goes on without this task (and its other samples).
            o.log.warn({ monitorId: run.monitorId, engine, country, err: e }, 'monitor task not submitted');
          }
        }
  return tasks;
}

/** Which sample of its prompt, engine and country a run's task is, from its index in the run's batch. */
export function sampleOf(batchIndex: number | null, samples: number): number {
  return batchIndex === null ? 0 : batchIndex % samples;
}

/**
 * Runs `m` now, outside its schedule (the run-now route): 404 when the monitor is gone, 409 MONITOR_RUN_IN_PROGRESS
 * while a run of it is starting or running. A run that could not be submitted at once stays `starting`: a worker's
 * scheduler pass submits it (the same batch id, made once). `notify` wakes the workers of each engine given tasks.
 * Returns the run as stored after its submission (or as made, if it cannot be read back). `askedId` is the id as the
 * client wrote it, for the 404.
 */
export async function runMonitorNow(
  o: RunSubmission & { store: { monitors: Pick<Monitors, 'startRun' | 'runs'> } },
  m: MonitorRecord,
  askedId: string,
  notify: (taskType: TaskType) => void,
): Promise<MonitorRunRecord> {
  const now = o.now();
  const run = newMonitorRun(m, now, now, 'manual');
  const outcome = await o.store.monitors.startRun(run);
  if (outcome === 'gone') throw monitorNotFound(askedId);
  if (outcome === 'in-progress') throw new RequestError('MONITOR_RUN_IN_PROGRESS', undefined, { monitorId: m.id });
  try {
    const made = await submitMonitorRun(o, run);
    for (const type of new Set<TaskType>(made.map((t) => t.taskType))) notify(type);
  } catch (e) {
    o.log.error({ err: e, runId: run.id }, 'monitor run not submitted at once');
  }
  const [fresh] = await o.store.monitors.runs({
    monitorId: m.id,
    accountId: m.accountId,
    from: run.slotAt,
    to: run.slotAt + 1,
    limit: 1,
  });
  return fresh ?? run;
}

/**
 * A run as the API shows it: its progress from its batch while it runs, from the counts of its saved results once
 * done (the results themselves are read only when asked for).
 */
export async function monitorRunView(
  store: { batches: Pick<Batches, 'get'> },
  run: MonitorRunRecord,
  withResults: boolean,
) {
  let progress: { total: number; done: number; completed: number; failed: number };
  if (run.status === 'completed') {
    const { completed, failed } = run.counts ?? { completed: 0, failed: 0 };
    progress = { total: run.tasks, done: completed + failed, completed, failed };
  } else {
    const batch = await store.batches.get({ id: run.batchId, accountId: run.accountId, notBefore: 0 });
    const c = batch?.counts;
    progress = {
      total: run.tasks,
      done: c ? c.COMPLETED + c.FAILED : 0,
      completed: c?.COMPLETED ?? 0,
      failed: c?.FAILED ?? 0,
    };
  }
  return {
    id: run.id,
    slotAt: new Date(run.slotAt).toISOString(),
    status: run.status,
    trigger: run.trigger,
    batchId: run.batchId,
    tasks: run.tasks,
    progress,
    createdAt: new Date(run.createdAt).toISOString(),
    completedAt: run.completedAt === null ? null : new Date(run.completedAt).toISOString(),
    ...(withResults ? { results: withMentions(run) } : {}),
  };
}

/**
 * A run's saved results, each with where its answer names the tracked brands (`mentions`: offsets in `text`, the
 * brand and its role, as the figures counted them: docs/analysis.md §6.1) and the brand's rank by first mention
 * (`position`). Saved with the run when it ended; computed here only for runs saved before that.
 */
function withMentions(run: MonitorRunRecord) {
  const results = run.results ?? [];
  if (results.every((r) => r.mentions !== undefined)) return results;
  const tracked = trackBrands(run.spec.brand, run.spec.competitors);
  return results.map((r) => {
    if (r.mentions !== undefined) return r;
    return { ...r, ...savedMentions(factsFor({ text: r.text, sources: [] }, tracked)) };
  });
}
