import type { Logger } from 'pino';
import { batchCompletedPayload } from '../domain/batch.js';
import { systemClock, type Clock } from '../domain/clock.js';
import type { Batches } from '../store/ports.js';
import { PeriodicPass } from './periodic-pass.js';

/** Batches completed per store call; the next tick takes the rest. */
const PER_ROUND = 100;

/**
 * Completes batches: every tick, each open batch whose tasks are all terminal is marked completed and, when it was
 * submitted with a webhook, gets its one `batch.completed` delivery in the outbox (store/batches.ts). Polling rather
 * than a hook in every terminal write keeps the task's finish (the hot path, and its PostgreSQL turn batch) as it
 * was; a batch completes within one tick of its last task. The timer only calls `runOnce()`; tests call it too.
 */
export class BatchCompleter extends PeriodicPass<number> {
  constructor(
    private readonly batches: Pick<Batches, 'complete'>,
    private readonly retentionMs: number,
    private readonly log: Logger,
    private readonly onWebhookQueued: () => void,
    private readonly clock: Clock = systemClock,
  ) {
    super();
  }

  protected async pass(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const now = this.clock.now();
        const done = await this.batches.complete({
          now,
          notBefore: now - this.retentionMs,
          limit: PER_ROUND,
          webhookOf: (b) =>
            b.webhookUrl ? { url: b.webhookUrl, payload: batchCompletedPayload(b), accountId: b.accountId } : null,
        });
        total += done.length;
        for (const b of done) this.log.info({ batchId: b.id, total: b.total }, 'batch completed');
        if (done.some((b) => b.webhookUrl)) this.onWebhookQueued();
        if (done.length < PER_ROUND) break;
      }
    } catch (e) {
      this.log.error({ err: e }, 'batch completion failed');
    }
    return total;
  }
}
