/**
 * Collects the calls made during one turn of the event loop and hands them to `flush` together at
 * its end (`setImmediate`): one statement, one round trip, for what would have been one each. The
 * PostgreSQL counterpart of the embedded store's group commit, for writes that are one statement
 * each and independent of one another.
 *
 * `flush` answers each item in order. If it throws, every item of the group is retried on its own
 * through `single`, so that one bad item cannot fail the others.
 */
export class TurnBatch<I, R> {
  private items: I[] = [];
  private waiters: Array<{ resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly flush: (items: I[]) => Promise<R[]>,
    private readonly single: (item: I) => Promise<R>,
  ) {}

  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.items.push(item);
      this.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.run());
      }
    });
  }

  private async run(): Promise<void> {
    this.scheduled = false;
    const items = this.items;
    const waiters = this.waiters;
    this.items = [];
    this.waiters = [];
    if (items.length === 1) {
      await this.single(items[0]!).then(waiters[0]!.resolve, waiters[0]!.reject);
      return;
    }
    try {
      const out = await this.flush(items);
      for (const [i, w] of waiters.entries()) w.resolve(out[i]!);
    } catch {
      await Promise.all(items.map((item, i) => this.single(item).then(waiters[i]!.resolve, waiters[i]!.reject)));
    }
  }
}
