import type { Logger } from 'pino';
import { systemClock, type Clock } from '../domain/clock.js';
import type { ArtifactFiles, Batches, Figures, TaskQueue } from '../store/ports.js';

/**
 * How often the counts' pending changes are folded (Figures.foldCounts): a read of /stats sums the rows added since the
 * last fold, a few per write statement, so that a busy store's reads stay at a few thousand rows.
 */
const FOLD_COUNTS_MS = 5_000;

/**
 * Deletes tasks older than the retention window in small batches, so the store stays responsive.
 * The timer only calls `runOnce()`; tests call it after moving their clock past the window.
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | null = null;
  private foldTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: {
      tasks: Pick<TaskQueue, 'deleteExpired'>;
      batches: Pick<Batches, 'deleteExpired'>;
      /** The artefacts' files, deleted with their tasks. */
      artifactFiles?: Pick<ArtifactFiles, 'purgeBefore'>;
      /** The counts of /stats, whose pending changes each sweep folds (the deletes add some). */
      figures?: Pick<Figures, 'foldCounts'>;
    },
    private readonly retentionMs: number,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
    private readonly batch = 1000,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.runOnce(), intervalMs);
    this.timer.unref();
    if (this.store.figures) {
      this.foldTimer = setInterval(() => void this.foldCounts(), Math.min(intervalMs, FOLD_COUNTS_MS));
      this.foldTimer.unref();
    }
  }

  /** Folds the counts' pending changes (PostgreSQL); a failure is logged and the next fold takes them. */
  async foldCounts(): Promise<void> {
    try {
      await this.store.figures?.foldCounts();
    } catch (e) {
      // Unfolded rows make every read of /stats longer: an operator must see it.
      this.log.error({ err: e }, 'status counts not folded');
    }
  }

  /** One sweep: deletes every expired task and batch (their webhook rows, artefacts' files); returns how many tasks. */
  async runOnce(): Promise<number> {
    let total = 0;
    try {
      const before = this.clock.now() - this.retentionMs;
      for (;;) {
        const n = await this.store.tasks.deleteExpired({ before, limit: this.batch });
        total += n;
        if (n < this.batch) break;
      }
      // Batches expire with their tasks (they were created together).
      let batches = 0;
      for (;;) {
        const n = await this.store.batches.deleteExpired({ before, limit: this.batch });
        batches += n;
        if (n < this.batch) break;
      }
      // The files after the rows: an expired task is already hidden from every read, and a sweep that stops between
      // the two leaves files the next sweep deletes (they are found by their tasks' creation time, not by the rows).
      const artifacts = (await this.store.artifactFiles?.purgeBefore(before)) ?? 0;
      if (total > 0 || batches > 0 || artifacts > 0)
        this.log.info({ deleted: total, batches, artifacts }, 'expired tasks deleted');
    } catch (e) {
      this.log.error({ err: e }, 'retention sweep failed');
    }
    await this.foldCounts();
    return total;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.foldTimer) clearInterval(this.foldTimer);
  }
}
