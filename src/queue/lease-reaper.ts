import type { Logger } from 'pino';
import type { ServiceConfig } from '../config/engine-config.js';
import type { Clock } from '../domain/clock.js';
import type { TaskRecord } from '../domain/task.js';
import type { TaskQueue, TerminalWrite, WorkerLiveness } from '../store/ports.js';
import { expiredWrite } from './terminal-write.js';

export interface ReapCounts {
  requeued: number;
  failed: number;
}

/** What one liveness sweep handed back from dead workers. */
export interface ReleaseCounts extends ReapCounts {
  workers: number;
  deliveries: number;
}

/**
 * Returns tasks of dead workers to the queue. Two sweeps, each a step the worker's timers call and tests call
 * directly: `releaseDead()` (every `livenessMs`) hands back everything a worker whose liveness signal is gone held
 * (store/workers/liveness.ts); `runOnce()` (every third of a lease) is the fallback for tasks whose worker was never
 * registered: a PROCESSING task whose lease expired goes back to QUEUED, or to FAILED (with its webhook) when it has
 * no attempt left.
 */
export class LeaseReaper {
  constructor(
    private readonly store: { tasks: Pick<TaskQueue, 'reapExpired'>; workers: Pick<WorkerLiveness, 'releaseDead'> },
    private readonly config: ServiceConfig,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly onWebhookQueued?: () => void,
  ) {}

  /** The terminal write of a task given up on: its engine's credits. */
  private expired(t: TaskRecord): TerminalWrite {
    return expiredWrite(t, this.config.engines[t.taskType].credits);
  }

  /** One sweep over expired leases; a store error is logged and counts as nothing reaped. */
  async runOnce(): Promise<ReapCounts> {
    try {
      const r = await this.store.tasks.reapExpired({ now: this.clock.now(), failedWrite: (t) => this.expired(t) });
      const counts = { requeued: r.requeued.length, failed: r.failed.length };
      if (counts.requeued || counts.failed) this.log.warn(counts, 'expired leases reaped');
      if (counts.failed) this.onWebhookQueued?.();
      return counts;
    } catch (e) {
      this.log.error({ err: e }, 'lease reaper failed');
      return { requeued: 0, failed: 0 };
    }
  }

  /** One liveness sweep: what dead workers held is handed back; a store error is logged and counts as nothing. */
  async releaseDead(): Promise<ReleaseCounts> {
    try {
      const r = await this.store.workers.releaseDead({ now: this.clock.now(), failedWrite: (t) => this.expired(t) });
      const counts = {
        workers: r.workers.length,
        requeued: r.requeued.length,
        failed: r.failed.length,
        deliveries: r.deliveries,
      };
      if (counts.workers) this.log.warn({ ...counts, deadWorkers: r.workers }, 'dead workers released');
      if (counts.failed || counts.deliveries) this.onWebhookQueued?.();
      return counts;
    } catch (e) {
      this.log.error({ err: e }, 'liveness sweep failed');
      return { workers: 0, requeued: 0, failed: 0, deliveries: 0 };
    }
  }
}
