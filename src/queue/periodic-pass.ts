/**
 * A pass run on a timer (and by tests through `runOnce()`): one pass at a time, a call during a pass joins it
 * rather than starting a second, and `stop()` waits for the pass under way.
 */
export abstract class PeriodicPass<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  protected abstract pass(): Promise<T>;

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.runOnce(), intervalMs);
    this.timer.unref();
  }

  /** One pass; a pass under way is joined, not doubled. */
  runOnce(): Promise<T> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stops the timer and waits for a pass under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
