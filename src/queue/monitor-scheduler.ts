import type { Logger } from 'pino';
import { visibilityMetrics, type RunAnswer } from '../analysis/visibility/index.js';
import { systemClock, type Clock } from '../domain/clock.js';
import type { NewBatch } from '../domain/batch.js';
import {
  dueSlot,
  nextSlot,
  type MonitorRecord,
  type MonitorRunRecord,
  type MonitorRunResult,
} from '../domain/monitor.js';
import type { NewTask } from '../domain/task.js';
import { newTaskId } from '../domain/task-id.js';
import { envelopeToTask, type SubmissionContext } from '../submission/envelope.js';
import type { Store } from '../store/store.js';

/** Monitors, runs and old runs handled per pass; the next pass takes the rest. */
const PER_PASS = 20;

export interface MonitorSchedulerOptions {
  /** Task retention (a run's tasks are read within it). */
  retentionMs: number;
  /** How long a run's saved results and figures are kept. */
  runRetentionMs: number;
}

/**
 * Runs monitors on their schedules (issue 18). Each pass:
 * 1. takes the slot of every due monitor: its run row, unique per monitor and scheduled time, so a restart or two
 *    workers never run one slot twice; slots missed while the service was down collapse into the latest one;
 * 2. gives each `starting` run its tasks, as one batch through the normal queue (idempotency keys per run and
 *    item, so a pass cut short and done again makes no task twice);
 * 3. ends each `running` run whose batch has finished: the tasks' answers are saved with the run (they outlive the
 *    tasks' 24 hours) with the visibility figures per engine and country (analysis/visibility, docs/analysis.md §6);
 * 4. deletes runs past the monitor data retention.
 * The timer only calls `runOnce()`; tests call it with a stepped clock.
 */
export class MonitorScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: Store,
    private readonly submission: SubmissionContext,
    private readonly o: MonitorSchedulerOptions,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.runOnce(), intervalMs);
    this.timer.unref();
  }

  /** One pass; a pass under way is joined, not doubled. */
  runOnce(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async pass(): Promise<void> {
    try {
      const now = this.clock.now();
      for (const m of await this.store.dueMonitors(now, PER_PASS)) await this.claim(m, now);
      for (const run of await this.store.monitorRunsIn('starting', PER_PASS)) await this.submit(run);
      for (const run of await this.store.monitorRunsIn('running', PER_PASS)) await this.finishIfDone(run);
      await this.store.deleteOldMonitorRuns(now - this.o.runRetentionMs, PER_PASS * 5);
    } catch (e) {
      this.log.error({ err: e }, 'monitor pass failed');
    }
  }

  private async claim(m: MonitorRecord, now: number): Promise<void> {
    const slot = dueSlot(m.schedule, now);
    const next = nextSlot(m.schedule, now);
    if (slot === null) return;
    const run: MonitorRunRecord = {
      id: newTaskId(now),
      monitorId: m.id,
      accountId: m.accountId,
      slotAt: slot,
      status: 'starting',
      batchId: newTaskId(now),
      tasks: m.prompts.length * m.engines.length * m.countries.length,
      results: null,
      metrics: null,
      createdAt: now,
      completedAt: null,
    };
    if (await this.store.claimMonitorSlot(run, next))
      this.log.info({ monitorId: m.id, runId: run.id, slot: new Date(slot).toISOString() }, 'monitor run started');
  }

  /** The run's tasks as one batch; a batch already made (a pass cut short after it) is not made again. */
  private async submit(run: MonitorRunRecord): Promise<void> {
    const notBefore = this.clock.now() - this.o.retentionMs;
    const exists = await this.store.getBatch(run.batchId, run.accountId, 0);
    if (!exists) {
      const monitor = await this.store.getMonitor(run.monitorId, run.accountId);
      if (!monitor) {
        await this.store.advanceMonitorRun(run.id, 'starting', { status: 'completed', completedAt: this.clock.now() });
        return;
      }
      const batch: NewBatch = {
        id: run.batchId,
        size: run.tasks,
        webhookUrl: null,
        createdAt: this.clock.now(),
        accountId: run.accountId,
      };
      const tasks = this.tasksOf(monitor, run);
      try {
        await this.store.insertTasks(tasks, notBefore, batch);
      } catch (e) {
        // Another process made the batch first (the same id): what matters is that it exists.
        if (!(await this.store.getBatch(run.batchId, run.accountId, 0))) throw e;
      }
    }
    await this.store.advanceMonitorRun(run.id, 'starting', { status: 'running' });
  }

  private tasksOf(m: MonitorRecord, run: MonitorRunRecord): NewTask[] {
    const tasks: NewTask[] = [];
    let index = 0;
    for (const prompt of m.prompts)
      for (const engine of m.engines)
        for (const country of m.countries) {
          const i = index++;
          try {
            const task = envelopeToTask(
              { taskType: engine, payload: { prompt, country }, idempotencyKey: `monitor:${run.id}:${i}` },
              this.submission,
              m.accountId,
            );
            task.batch = { id: run.batchId, index: i };
            tasks.push(task);
          } catch (e) {
            // A region the engine cannot serve now: the run goes on without this task (counted as not asked).
            this.log.warn({ monitorId: m.id, engine, country, err: e }, 'monitor task not submitted');
          }
        }
    return tasks;
  }

  /** Saves the answers and the figures once every task of the run's batch has ended. */
  private async finishIfDone(run: MonitorRunRecord): Promise<void> {
    const batch = await this.store.getBatch(run.batchId, run.accountId, 0);
    const terminal = batch ? batch.counts.COMPLETED + batch.counts.FAILED : 0;
    if (batch && terminal < batch.total) return;
    const monitor = await this.store.getMonitor(run.monitorId, run.accountId);
    const results: MonitorRunResult[] = [];
    for (const item of batch ? await this.store.batchItems(batch, -1, 500) : []) {
      const t = await this.store.getTask(item.taskId, 0);
      if (!t || (t.status !== 'COMPLETED' && t.status !== 'FAILED')) continue;
      const r = (t.result ?? {}) as { text?: unknown; sources?: Array<{ url?: unknown }> };
      results.push({
        taskId: t.id,
        prompt: String((t.payload as { prompt?: unknown }).prompt ?? ''),
        engine: t.taskType,
        country: t.country,
        status: t.status,
        text: typeof r.text === 'string' ? r.text : '',
        sources: (r.sources ?? []).map((s) => s.url).filter((u): u is string => typeof u === 'string'),
        error: t.error,
      });
    }
    const metrics: Record<string, unknown> = {};
    if (monitor) {
      const groups = new Map<string, RunAnswer[]>();
      for (const r of results) {
        const key = `${r.engine}/${r.country ?? '-'}`;
        const answer: RunAnswer =
          r.status === 'COMPLETED'
            ? { status: 'answered', answer: { text: r.text, sources: r.sources.map((url) => ({ url })) } }
            : { status: 'failed' };
        groups.set(key, [...(groups.get(key) ?? []), answer]);
      }
      for (const [key, answers] of groups)
        metrics[key] = visibilityMetrics(answers, monitor.brand, monitor.competitors);
    }
    const now = this.clock.now();
    if (
      await this.store.advanceMonitorRun(run.id, 'running', { status: 'completed', results, metrics, completedAt: now })
    )
      this.log.info({ runId: run.id, tasks: results.length }, 'monitor run completed');
  }
}
