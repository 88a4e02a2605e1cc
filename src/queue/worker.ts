import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ServiceConfig } from '../config/engine-config.js';
import { taskErrorString } from '../domain/engine-errors.js';
import type { ClaimedTask, TaskRecord } from '../domain/task.js';
import type { TaskType } from '../domain/task-types.js';
import { webhookPayload } from '../domain/task-view.js';
import type { Metrics } from '../ops/metrics.js';
import type { Store, TerminalWrite } from '../store/store.js';
import type { AttemptOutcome, AttemptRunner } from './attempt-runner.js';
import { retryDelayMs } from './retry-policy.js';

export interface WorkerDeps {
  store: Store;
  config: ServiceConfig;
  runner: AttemptRunner;
  metrics: Metrics;
  log: Logger;
  now?: () => number;
  /** Called after a delivery is written, so the webhook sender wakes at once. */
  onWebhookQueued?: () => void;
}

/**
 * The worker: per engine, claims due tasks up to the engine's concurrency (the store enforces it
 * across processes), runs each attempt, and writes the outcome under the task's lease. Heartbeats
 * keep leases alive; the reaper returns tasks of dead workers to the queue.
 */
export class Worker {
  readonly id = `worker-${randomUUID().slice(0, 8)}`;
  private readonly inFlight = new Map<string, ClaimedTask>();
  private readonly perEngine = new Map<TaskType, number>();
  private readonly claiming = new Set<TaskType>();
  private readonly wanted = new Set<TaskType>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly drain = new AbortController();
  private stopped = false;
  private readonly now: () => number;
  private readonly running = new Set<Promise<void>>();
  /** Claims under way: stop() waits for them, since they can still launch tasks. */
  private readonly claims = new Set<Promise<void>>();

  constructor(private readonly d: WorkerDeps) {
    this.now = d.now ?? Date.now;
  }

  start(): void {
    const s = this.d.config.scheduler;
    this.timers.push(setInterval(() => this.pollAll(), s.pollMs));
    this.timers.push(setInterval(() => void this.heartbeat(), s.heartbeatMs));
    this.timers.push(setInterval(() => void this.reapOnce(), Math.max(250, Math.floor(s.leaseMs / 3))));
    void this.reapOnce().then(() => this.pollAll());
  }

  /** Wake-up after a submit in this process: claim without waiting for the next poll. */
  notify(taskType: TaskType): void {
    if (!this.stopped) void this.claim(taskType);
  }

  private pollAll(): void {
    if (this.stopped) return;
    for (const t of Object.keys(this.d.config.engines) as TaskType[]) void this.claim(t);
  }

  private claim(taskType: TaskType): Promise<void> {
    const p = this.claimRound(taskType).finally(() => this.claims.delete(p));
    this.claims.add(p);
    return p;
  }

  private async claimRound(taskType: TaskType): Promise<void> {
    const engine = this.d.config.engines[taskType];
    if (engine.paused || this.stopped) return;
    // One claim per engine at a time; a wake-up during a claim triggers another round after it.
    if (this.claiming.has(taskType)) {
      this.wanted.add(taskType);
      return;
    }
    const free = engine.concurrency - (this.perEngine.get(taskType) ?? 0);
    if (free <= 0) return;
    this.claiming.add(taskType);
    try {
      const tasks = await this.d.store.claimTasks({
        taskType,
        limit: free,
        concurrency: engine.concurrency,
        workerId: this.id,
        now: this.now(),
        leaseMs: this.d.config.scheduler.leaseMs,
      });
      for (const t of tasks) this.launch(t);
    } catch (e) {
      this.d.log.error({ err: e, engine: taskType }, 'claim failed');
    } finally {
      this.claiming.delete(taskType);
    }
    if (this.wanted.delete(taskType)) void this.claim(taskType);
  }

  private launch(task: ClaimedTask): void {
    this.inFlight.set(task.id, task);
    this.perEngine.set(task.taskType, (this.perEngine.get(task.taskType) ?? 0) + 1);
    this.d.metrics.attempts.inc({ engine: task.taskType });
    const p = this.execute(task)
      .catch((e: unknown) => this.d.log.error({ err: e, taskId: task.id }, 'task execution crashed'))
      .finally(() => {
        this.inFlight.delete(task.id);
        this.perEngine.set(task.taskType, (this.perEngine.get(task.taskType) ?? 1) - 1);
        this.running.delete(p);
        void this.claim(task.taskType);
      });
    this.running.add(p);
  }

  private async execute(task: ClaimedTask): Promise<void> {
    const log = this.d.log.child({ taskId: task.id, engine: task.taskType, attempt: task.attempts });
    log.info('attempt started');
    const outcome = await this.d.runner.run(task, log, this.drain.signal);
    await this.record(task, outcome, log);
  }

  private async record(task: ClaimedTask, outcome: AttemptOutcome, log: Logger): Promise<void> {
    const now = this.now();
    if (outcome.kind === 'failed') this.d.metrics.failures.inc({ engine: task.taskType, code: outcome.code });
    if (outcome.kind === 'failed' && outcome.retryable && task.attempts < task.maxAttempts && !this.stopped) {
      const s = this.d.config.scheduler;
      const at = now + retryDelayMs(task.attempts, s.retryBaseMs, s.retryMaxMs);
      const ok = await this.d.store.retryTask(task.id, task.leaseToken, outcome.error, at, now);
      log.info({ retryAt: new Date(at).toISOString(), error: outcome.error, leaseHeld: ok }, 'attempt failed, retry scheduled');
      return;
    }
    if (outcome.kind === 'failed' && outcome.retryable && this.stopped) {
      // Draining: give the task back now rather than failing it; another worker picks it up.
      await this.d.store.retryTask(task.id, task.leaseToken, outcome.error, now, now);
      log.info('attempt interrupted by shutdown, task requeued');
      return;
    }
    const write = terminalWrite(task, outcome, this.d.config.engines[task.taskType].credits);
    const ok = await this.d.store.finishTask(task.id, task.leaseToken, write, now);
    if (!ok) {
      log.warn('lease lost before the task could be finished; the result is discarded');
      return;
    }
    this.d.metrics.tasksFinished.inc({ engine: task.taskType, status: write.status });
    this.d.metrics.taskLatency.observe({ engine: task.taskType, status: write.status }, (now - task.createdAt) / 1000);
    log.info({ status: write.status, error: write.error ?? undefined }, 'task finished');
    if (write.webhook) this.d.onWebhookQueued?.();
  }

  private async heartbeat(): Promise<void> {
    if (this.inFlight.size === 0) return;
    const leases = [...this.inFlight.values()].map((t) => ({ id: t.id, leaseToken: t.leaseToken }));
    try {
      await this.d.store.heartbeat(leases, this.now() + this.d.config.scheduler.leaseMs);
    } catch (e) {
      this.d.log.error({ err: e }, 'heartbeat failed');
    }
  }

  /** Returns tasks of dead workers to the queue (or fails them when no attempt is left). */
  async reapOnce(): Promise<void> {
    try {
      const r = await this.d.store.reapExpiredLeases(this.now(), (t) => expiredWrite(t, this.d.config.engines[t.taskType].credits));
      if (r.requeued.length || r.failed.length) this.d.log.warn({ requeued: r.requeued.length, failed: r.failed.length }, 'expired leases reaped');
      if (r.failed.length) this.d.onWebhookQueued?.();
    } catch (e) {
      this.d.log.error({ err: e }, 'lease reaper failed');
    }
  }

  /** Stops claiming, waits up to `graceMs` for attempts in flight, then aborts the rest (requeued). */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    // A claim that was already under way may still launch tasks; they must be drained like the others.
    await Promise.allSettled([...this.claims]);
    const all = Promise.allSettled([...this.running]);
    const timer = new Promise((r) => setTimeout(r, graceMs).unref());
    await Promise.race([all, timer]);
    if (this.running.size > 0) {
      this.drain.abort(new Error('worker draining'));
      await Promise.allSettled([...this.running]);
    }
  }
}

export function terminalWrite(task: TaskRecord, outcome: AttemptOutcome, credits: number): TerminalWrite {
  const base =
    outcome.kind === 'completed'
      ? { status: 'COMPLETED' as const, result: outcome.response, error: null, creditsToCharge: outcome.credits ?? credits, creditsCharged: outcome.credits ?? credits }
      : { status: 'FAILED' as const, result: undefined, error: outcome.error, creditsToCharge: credits, creditsCharged: 0 };
  return { ...base, webhook: task.webhookUrl ? { url: task.webhookUrl, payload: webhookPayload(task, base) } : null };
}

function expiredWrite(task: TaskRecord, credits: number): TerminalWrite {
  const error = task.error ?? taskErrorString('ENGINE_TIMEOUT');
  return terminalWrite(task, { kind: 'failed', code: 'ENGINE_TIMEOUT', error, retryable: false }, credits);
}
