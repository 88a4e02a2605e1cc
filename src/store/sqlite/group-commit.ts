import type BetterSqlite3 from 'better-sqlite3';

interface Job {
  fn: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit for the embedded store: the writes asked for during one turn of the event loop run
 * in one SQLite transaction (one WAL commit instead of one per request), each in its own savepoint
 * so that a write that throws rolls back alone and only its caller sees the error.
 *
 * better-sqlite3 is synchronous, so nothing interleaves with a flush. The one thing to respect is a
 * Kysely transaction left open across an `await` (the reaper, the retention sweep): a flush that
 * finds the connection inside one waits for Kysely's connection (`whenFree`) instead of writing
 * into that transaction.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;
  private reads: Job[] = [];
  private readsScheduled = false;
  /** A transaction of its own, or a savepoint when called inside one (better-sqlite3 nests them so). */
  private readonly atomically: (fn: () => unknown) => unknown;
  private readonly transaction: (jobs: Job[], out: Array<{ ok: boolean; value: unknown }>) => void;

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly whenFree: (fn: () => void) => Promise<void>,
  ) {
    this.atomically = raw.transaction((fn: () => unknown) => fn());
    this.transaction = raw.transaction((jobs: Job[], out: Array<{ ok: boolean; value: unknown }>) => {
      for (const j of jobs) {
        try {
          out.push({ ok: true, value: this.atomically(j.fn) });
        } catch (e) {
          out.push({ ok: false, value: e });
        }
      }
    });
  }

  /** Runs `fn` in the next group transaction; resolves once that transaction has committed. */
  write<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /**
   * For a write whose latency matters more than its grouping (a claim: an idle worker should start
   * at once): when nothing is waiting and no Kysely transaction is open, it commits now, alone;
   * otherwise it joins the group (after the writes already waiting, e.g. the finishes it follows).
   */
  writeNowIfIdle<T>(fn: () => T): Promise<T> {
    if (this.queue.length > 0 || this.raw.inTransaction) return this.write(fn);
    try {
      return Promise.resolve(this.atomically(fn) as T);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * Runs a read at the end of this turn of the event loop, with the other reads asked for in it.
   * Answering a turn's polls together, rather than each as soon as its request is parsed, lets their
   * responses leave in one burst: on loopback this cut the server's CPU per poll by about a third
   * (the kernel's cost of a socket write is mostly waking the reader, paid once per burst; see
   * docs/benchmarks.md). A turn lasts microseconds when idle, so a lone poll waits no longer.
   * While a Kysely transaction is open the reads wait for it (they could see its uncommitted rows).
   */
  read<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.reads.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.readsScheduled) {
        this.readsScheduled = true;
        setImmediate(() => this.flushReads());
      }
    });
  }

  private flushReads(): void {
    this.readsScheduled = false;
    const jobs = this.reads;
    this.reads = [];
    const run = () => {
      for (const j of jobs) {
        try {
          j.resolve(j.fn());
        } catch (e) {
          j.reject(e);
        }
      }
    };
    this.outsideKyselyTransaction(jobs, run);
  }

  private flush(): void {
    this.scheduled = false;
    const jobs = this.queue;
    this.queue = [];
    if (jobs.length === 0) return;
    this.outsideKyselyTransaction(jobs, () => this.commit(jobs));
  }

  /** Runs `run` now, or once Kysely's open transaction has ended (then a failure to wait rejects the jobs). */
  private outsideKyselyTransaction(jobs: Job[], run: () => void): void {
    if (!this.raw.inTransaction) run();
    else
      this.whenFree(run).catch((e: unknown) => {
        for (const j of jobs) j.reject(e);
      });
  }

  private commit(jobs: Job[]): void {
    const out: Array<{ ok: boolean; value: unknown }> = [];
    try {
      this.transaction(jobs, out);
    } catch (e) {
      // The commit itself failed (a full disk, a lock held past busy_timeout): nothing was written.
      for (const j of jobs) j.reject(e);
      return;
    }
    jobs.forEach((j, i) => {
      const r = out[i]!;
      if (r.ok) j.resolve(r.value);
      else j.reject(r.value);
    });
  }
}
