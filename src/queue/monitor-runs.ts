import type { Logger } from 'pino';
import type { NewBatch } from '../domain/batch.js';
import {
  type MonitorRecord,
  type MonitorRunRecord,
  type MonitorRunTrigger,
  monitorSpecOf,
  tasksPerRun,
} from '../domain/monitor.js';
import type { NewTask } from '../domain/task.js';
import { newTaskId } from '../domain/task-id.js';
import type { Batches, Monitors, TaskQueue } from '../store/ports.js';
import { envelopeToTask, type SubmissionContext } from '../submission/envelope.js';

/**
 * A monitor run's making and submission, shared by the scheduler (a scheduled slot) and the run-now route (a run
 * started by hand): both make the same run, with the monitor's definition as it is now, and submit the same tasks
 * through the normal queue, so a run started by hand is limited (the monitor's size bound) and counted (usage, per
 * finished task) exactly as a scheduled one.
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

function tasksOf(o: RunSubmission, run: MonitorRunRecord): NewTask[] {
  const tasks: NewTask[] = [];
  let index = 0;
  for (const prompt of run.spec.prompts)
    for (const engine of run.spec.engines)
      for (const country of run.spec.countries) {
        const i = index++;
        try {
          const task = envelopeToTask(
            { taskType: engine, payload: { prompt, country }, idempotencyKey: `monitor:${run.id}:${i}` },
            o.submission,
            run.accountId,
          );
          task.batch = { id: run.batchId, index: i };
          tasks.push(task);
        } catch (e) {
          // A region the engine cannot serve now: the run goes on without this task.
          o.log.warn({ monitorId: run.monitorId, engine, country, err: e }, 'monitor task not submitted');
        }
      }
  return tasks;
}
