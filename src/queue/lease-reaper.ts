import type { Logger } from 'pino';
import type { ServiceConfig } from '../config/engine-config.js';
import type { Clock } from '../domain/clock.js';
import type { Store } from '../store/store.js';
import { expiredWrite } from './terminal-write.js';

export interface ReapCounts {
  requeued: number;
  failed: number;
}

/**
 * Returns tasks of dead workers to the queue: a PROCESSING task whose lease expired goes back to
 * QUEUED, or to FAILED (with its webhook) when it has no attempt left. The worker's timer calls
 * `runOnce()` every third of a lease; tests call it after moving their clock past a lease.
 */
export class LeaseReaper {
  constructor(
    private readonly store: Store,
    private readonly config: ServiceConfig,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly onWebhookQueued?: () => void,
  ) {}

  /** One sweep over expired leases; a store error is logged and counts as nothing reaped. */
  async runOnce(): Promise<ReapCounts> {
    try {
      const r = await this.store.reapExpiredLeases(this.clock.now(), (t) =>
        expiredWrite(t, this.config.engines[t.taskType].credits),
      );
      const counts = { requeued: r.requeued.length, failed: r.failed.length };
      if (counts.requeued || counts.failed) this.log.warn(counts, 'expired leases reaped');
      if (counts.failed) this.onWebhookQueued?.();
      return counts;
    } catch (e) {
      this.log.error({ err: e }, 'lease reaper failed');
      return { requeued: 0, failed: 0 };
    }
  }
}
