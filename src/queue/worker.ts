import { createHash, randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { ServiceConfig } from '../config/engine-config.js';
import { systemClock, type Clock } from '../domain/clock.js';
import type { ClaimedTask } from '../domain/task.js';
import type { TaskType } from '../domain/task-types.js';
import type { Metrics } from '../ops/metrics.js';
import type { ArtifactFiles, ExitOffer, TaskQueue, WorkerLiveness, WorkerRegistration } from '../store/ports.js';
import { ARTIFACT_KINDS, type StoredArtifact } from '../domain/artifact.js';
import type { EvidenceItem } from './attempt-evidence.js';
import type { AttemptOutcome, AttemptRunner } from './attempt-runner.js';
import { LeaseReaper } from './lease-reaper.js';
import { retryDelayMs } from './retry-policy.js';
import { terminalWrite } from './terminal-write.js';

export interface WorkerDeps {
  tasks: TaskQueue;
  /** The liveness sweep's release of dead workers (the lease reaper's). */
  workers: WorkerLiveness;
  /** This process's registration: the id its claims are recorded under, alive while the process is. */
  registration: WorkerRegistration;
  config: ServiceConfig;
  runner: AttemptRunner;
  metrics: Metrics;
  log: Logger;
  /** The system clock unless a test passes one it steps. */
  clock?: Clock;
  /** Called after a delivery is written, so the webhook sender wakes at once. */
  onWebhookQueued?: () => void;
  /**
   * Called when an attempt ends in a slot beyond this worker's share of its engine, which this worker does not refill:
   * the other workers are woken to claim it (the wake bus), rather than at their next poll.
   */
  onSlotHandedOver?: (taskType: TaskType) => void;
  /** Where the artefacts' files go (tasks that keep them); without it no task keeps any. */
  artifacts?: ArtifactFiles;
  /**
   * With a store that records pool slots: the exit addresses offered to each claim, which leases them (the finish
   * frees them), and the release of a claim's lease that no finish frees (a retry, a crash).
   */
  exitLeases?: { offer(taskType: TaskType): ExitOffer | null; release(slotToken: string): Promise<void> };
}

/**
 * The worker: per engine, claims due tasks up to the engine's concurrency (the store enforces it
 * across processes), runs each attempt, and writes the outcome under the task's lease. Heartbeats
 * keep leases alive; the reaper returns tasks of dead workers to the queue. The timers only call
 * `runOnce()` (claim), `reaper.releaseDead()` and `reaper.runOnce()`, which tests call directly.
 */
export class Worker {
  private readonly inFlight = new Map<string, ClaimedTask>();
  private readonly perEngine = new Map<TaskType, number>();
  /** Per engine, the store call of the claim under way (one at a time). */
  private readonly claiming = new Map<TaskType, Promise<unknown>>();
  private readonly wanted = new Set<TaskType>();
  /** Engines with a claim due at the end of this turn, after the attempts that ended in it have freed their slots. */
  private readonly freed = new Set<TaskType>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly drain = new AbortController();
  private stopped = false;
  /** Worker processes alive, this one included (countWorkers). */
  private liveWorkers = 1;
  private readonly clock: Clock;
  readonly reaper: LeaseReaper;
  private readonly running = new Set<Promise<void>>();
  /** Claims under way: stop() waits for them, since they can still launch tasks. */
  private readonly claims = new Set<Promise<number>>();

  constructor(private readonly d: WorkerDeps) {
    // Every attempt in flight listens to the drain signal (and stops listening when it ends): no leak to warn of.
    setMaxListeners(0, this.drain.signal);
    this.clock = d.clock ?? systemClock;
    this.reaper = new LeaseReaper(d, d.config, this.clock, d.log, d.onWebhookQueued);
  }

  /** The id claims are recorded under (the registration's; it changes if the liveness signal was lost). */
  get id(): string {
    return this.d.registration.id;
  }

  start(): void {
    const s = this.d.config.scheduler;
    this.timers.push(setInterval(() => this.poll(), s.pollMs));
    this.timers.push(setInterval(() => void this.heartbeat(), s.heartbeatMs));
    this.timers.push(setInterval(() => void this.reaper.runOnce(), Math.max(250, Math.floor(s.leaseMs / 3))));
    this.timers.push(setInterval(() => void this.livenessStep(), Math.max(100, s.livenessMs)));
    // What a dead worker (on SQLite: this file's previous process) held is handed back before the first claim.
    void this.reaper
      .releaseDead()
      .then(() => this.countWorkers())
      .then(() => this.reaper.runOnce())
      .then(() => this.poll());
  }

  /**
   * The timer's claim: for every engine, a claim now, or, if one is under way, one more after it
   * (merged with any other wake-up). Unlike runOnce() it never queues a claim per tick, so claims
   * slower than the poll interval (a busy PostgreSQL) do not pile up behind each other.
   */
  private poll(): void {
    if (this.stopped) return;
    for (const t of Object.keys(this.d.config.engines) as TaskType[]) void this.claim(t);
  }

  /** Its own signal checked, then what dead workers held handed back, then the live workers counted. */
  private async livenessStep(): Promise<void> {
    await this.d.registration.verify();
    await this.reaper.releaseDead();
    await this.countWorkers();
  }

  /**
   * The worker processes alive, which split each engine's concurrency between them (`shareConcurrency`). Each
   * worker claiming up to the whole concurrency made two of them take turns: the refill claim after one's finish took
   * every slot while the other's tasks were done, so only one ran at a time, and two were slower than one
   * (docs/benchmarks.md, "Worker processes share an engine's concurrency"). With a share each, both run at once.
   */
  private async countWorkers(): Promise<void> {
    try {
      const n = Math.max(1, await this.d.workers.count());
      // Each change of the count changes this worker's share of every engine: worth a line for the operator.
      if (n !== this.liveWorkers) this.d.log.info({ workers: n }, 'worker processes counted');
      this.liveWorkers = n;
    } catch (e) {
      this.d.log.warn({ err: e }, 'workers not counted; the last count stands');
    }
  }

  /** This worker's share of an engine's `concurrency`: all of it, or its part among the live workers. */
  private shareOf(concurrency: number): number {
    return this.d.config.scheduler.shareConcurrency > 0 ? Math.ceil(concurrency / this.liveWorkers) : concurrency;
  }

  /** Wake-up after a submit in this process: claim without waiting for the next poll. */
  notify(taskType: TaskType): void {
    if (!this.stopped) void this.claim(taskType);
  }

  /**
   * One step of the claim loop: for every engine, claims the due tasks it has room for and starts
   * them. An engine's claim already under way finishes first (then this step claims again, as a
   * wake-up during a claim does), so a caller sees every task started so far in `inFlightCount()`.
   * Returns how many tasks this step claimed; `idle()` waits for their attempts.
   */
  async runOnce(): Promise<number> {
    if (this.stopped) return 0;
    const counts = await Promise.all(
      (Object.keys(this.d.config.engines) as TaskType[]).map((t) => this.claimAfterCurrent(t)),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  private async claimAfterCurrent(taskType: TaskType): Promise<number> {
    for (let current = this.claiming.get(taskType); current; current = this.claiming.get(taskType))
      await current.catch(() => undefined);
    return this.claim(taskType);
  }

  /** Attempts in flight in this worker. */
  inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Waits for the attempts in flight (including any they lead to claiming). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.claims.size > 0) await Promise.allSettled([...this.running, ...this.claims]);
  }

  private claim(taskType: TaskType): Promise<number> {
    const p = this.claimRound(taskType).finally(() => this.claims.delete(p));
    this.claims.add(p);
    return p;
  }

  private async claimRound(taskType: TaskType): Promise<number> {
    const engine = this.d.config.engines[taskType];
    // Without a live registration a claim would be handed back by the next sweep: wait until registered again.
    if (engine.paused || this.stopped || !this.d.registration.live) return 0;
    // One claim per engine at a time; a wake-up during a claim triggers another round after it.
    if (this.claiming.has(taskType)) {
      this.wanted.add(taskType);
      return 0;
    }
    const share = this.shareOf(engine.concurrency);
    const free = share - (this.perEngine.get(taskType) ?? 0);
    if (free <= 0) return 0;
    let claimed = 0;
    const leaseToken = randomUUID();
    try {
      const call = this.d.tasks.claim({
        taskType,
        limit: free,
        concurrency: engine.concurrency,
        workerId: this.id,
        now: this.clock.now(),
        leaseMs: this.d.config.scheduler.leaseMs,
        leaseToken,
        ...this.exitOfferFor(taskType),
      });
      this.claiming.set(taskType, call);
      const tasks = await call;
      for (const t of tasks) this.launch(t);
      claimed = tasks.length;
      this.d.metrics.claims.inc({ engine: taskType, outcome: claimed > 0 ? 'tasks' : 'empty' });
    } catch (e) {
      this.d.metrics.claims.inc({ engine: taskType, outcome: 'failed' });
      this.d.log.error({ err: e, engine: taskType }, 'claim failed');
      // The store may have committed the claim before it failed here: give its tasks and exit addresses back now,
      // rather than when their lease and holds run out.
      await this.abandonClaim(taskType, leaseToken);
    } finally {
      this.claiming.delete(taskType);
    }
    if (this.wanted.delete(taskType)) {
      // A claim that found little room (other workers took it, or few tasks were due) waits `claimCoalesceMs` before
      // the next one, so that completions gather into one claim instead of many small ones: claims of one engine
      // serialise on its lock, and each has a fixed cost (docs/benchmarks.md, "Scale-out").
      const wait = this.d.config.scheduler.claimCoalesceMs;
      if (wait > 0 && claimed > 0 && claimed < share / 4) setTimeout(() => void this.claim(taskType), wait).unref();
      else void this.claim(taskType);
    }
    return claimed;
  }

  private async abandonClaim(taskType: TaskType, leaseToken: string): Promise<void> {
    try {
      const given = await this.d.tasks.abandonClaim({ leaseToken, now: this.clock.now() });
      if (given > 0) this.d.log.warn({ engine: taskType, tasks: given }, 'failed claim given back');
    } catch (e) {
      this.d.log.error({ err: e, engine: taskType }, 'failed claim not given back: its leases will expire');
    }
  }

  private exitOfferFor(taskType: TaskType): { exitOffer?: ExitOffer } {
    const offer = this.d.exitLeases?.offer(taskType);
    return offer ? { exitOffer: offer } : {};
  }

  private launch(task: ClaimedTask): void {
    this.inFlight.set(task.id, task);
    this.perEngine.set(task.taskType, (this.perEngine.get(task.taskType) ?? 0) + 1);
    this.d.metrics.attempts.inc({ engine: task.taskType });
    const p = this.execute(task)
      .catch((e: unknown) => {
        this.d.log.error({ err: e, taskId: task.id }, 'task execution crashed');
        // Its finish may not have run: the claim's lease of an exit address is freed here (a second free is a no-op).
        this.releaseExitLease(task);
      })
      .finally(() => {
        this.inFlight.delete(task.id);
        const held = (this.perEngine.get(task.taskType) ?? 1) - 1;
        this.perEngine.set(task.taskType, held);
        this.running.delete(p);
        this.claimAfterTurn(task.taskType);
        // Above its share (it claimed before another worker was counted), this worker leaves the slot to the others.
        if (held >= this.shareOf(this.d.config.engines[task.taskType].concurrency))
          this.d.onSlotHandedOver?.(task.taskType);
      });
    this.running.add(p);
  }

  /**
   * The claim that refills the slots of attempts that ended: one per engine, at the end of the turn, so that it counts
   * every slot freed in the turn. A finish statement ends many attempts at once; a claim started at the first of them
   * would see one free slot and leave the rest to a second claim (docs/benchmarks.md, "Scale-out").
   */
  private claimAfterTurn(taskType: TaskType): void {
    if (this.stopped || this.freed.has(taskType)) return;
    this.freed.add(taskType);
    const p = new Promise<number>((resolve) =>
      setImmediate(() => {
        this.freed.delete(taskType);
        resolve(this.claim(taskType));
      }),
    ).finally(() => this.claims.delete(p));
    this.claims.add(p);
  }

  private async execute(task: ClaimedTask): Promise<void> {
    const log = this.d.log.child({ taskId: task.id, engine: task.taskType, attempt: task.attempts });
    log.info('attempt started');
    const outcome = await this.d.runner.run(task, log, this.drain.signal);
    await this.record(task, outcome, log);
  }

  private async record(task: ClaimedTask, outcome: AttemptOutcome, log: Logger): Promise<void> {
    const now = this.clock.now();
    if (outcome.kind === 'failed') this.d.metrics.failures.inc({ engine: task.taskType, code: outcome.code });
    if (outcome.kind === 'failed' && outcome.retryable && task.attempts < task.maxAttempts && !this.stopped) {
      const s = this.d.config.scheduler;
      // Never sooner than the upstream asked (its Retry-After, capped at retryMaxMs by the runner).
      const delay = Math.max(retryDelayMs(task.attempts, s.retryBaseMs, s.retryMaxMs), outcome.retryAfterMs ?? 0);
      const at = now + delay;
      const ok = await this.d.tasks.retry({
        id: task.id,
        leaseToken: task.leaseToken,
        error: outcome.error,
        availableAt: at,
        now,
        failure: outcome.failure,
      });
      this.releaseExitLease(task);
      log.info(
        { retryAt: new Date(at).toISOString(), error: outcome.error, leaseHeld: ok },
        'attempt failed, retry scheduled',
      );
      return;
    }
    if (outcome.kind === 'failed' && outcome.retryable && this.stopped) {
      // Draining: give the task back now rather than failing it; another worker picks it up.
      await this.d.tasks.retry({
        id: task.id,
        leaseToken: task.leaseToken,
        error: outcome.error,
        availableAt: now,
        now,
        failure: outcome.failure,
      });
      this.releaseExitLease(task);
      log.info('attempt interrupted by shutdown, task requeued');
      return;
    }
    const kept = outcome.kind === 'completed' ? await this.storeEvidence(task, outcome.evidence, log) : [];
    const write = terminalWrite(task, outcome, this.d.config.engines[task.taskType].credits, kept);
    const ok = await this.d.tasks.finish({
      id: task.id,
      leaseToken: task.leaseToken,
      write,
      now,
      ...(task.exitLease ? { releaseSlot: task.exitLease.slotToken } : {}),
    });
    if (!ok) {
      log.warn('lease lost before the task could be finished; the result is discarded');
      return;
    }
    this.d.metrics.tasksFinished.inc({ engine: task.taskType, status: write.status });
    if (write.creditsCharged > 0)
      this.d.metrics.creditsCharged.inc({ account: task.accountId, engine: task.taskType }, write.creditsCharged);
    this.d.metrics.taskLatency.observe({ engine: task.taskType, status: write.status }, (now - task.createdAt) / 1000);
    log.info({ status: write.status, error: write.error ?? undefined }, 'task finished');
    if (write.webhook) this.d.onWebhookQueued?.();
  }

  /** Frees the store's lease of the exit address the claim leased for `task`, where no finish frees it. */
  private releaseExitLease(task: ClaimedTask): void {
    if (task.exitLease)
      void this.d.exitLeases?.release(task.exitLease.slotToken).catch((e: unknown) => {
        this.d.log.warn({ err: e, taskId: task.id }, 'exit-address lease not freed; it runs out on its own');
      });
  }

  /**
   * Writes an attempt's artefacts' files before its finish names them, so a finished task never names a file that is
   * not there. A file that cannot be written is left out (logged): the answer does not depend on it. Files of an
   * attempt whose finish then loses its lease stay unnamed under their attempt's folder until the retention sweep.
   */
  private async storeEvidence(
    task: ClaimedTask,
    evidence: readonly EvidenceItem[] | undefined,
    log: Logger,
  ): Promise<StoredArtifact[]> {
    const files = this.d.artifacts;
    if (!files || !evidence || evidence.length === 0) return [];
    const kept: StoredArtifact[] = [];
    for (const item of evidence) {
      const { name, contentType } = ARTIFACT_KINDS[item.kind];
      try {
        await files.write({ taskId: task.id, attempt: task.attempts, name, bytes: item.bytes });
      } catch (e) {
        log.error({ err: e, artifact: name }, 'artefact not written; the task finishes without it');
        continue;
      }
      kept.push({
        name,
        kind: item.kind,
        contentType,
        bytes: item.bytes.byteLength,
        sha256: createHash('sha256').update(item.bytes).digest('hex'),
        createdAt: this.clock.now(),
        attempt: task.attempts,
      });
    }
    return kept;
  }

  private async heartbeat(): Promise<void> {
    if (this.inFlight.size === 0) return;
    const leases = [...this.inFlight.values()].map((t) => ({ id: t.id, leaseToken: t.leaseToken }));
    try {
      await this.d.tasks.heartbeat({ leases, expiresAt: this.clock.now() + this.d.config.scheduler.leaseMs });
    } catch (e) {
      this.d.log.error({ err: e }, 'heartbeat failed');
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
