import { setMaxListeners } from 'node:events';

/** Attempts started within this many milliseconds share one deadline signal. */
const BUCKET_MS = 100;

/**
 * Per-attempt deadlines without a timer and a signal per attempt (`AbortSignal.timeout` was about
 * 10 µs of each webhook delivery, docs/benchmarks.md): the attempts started within one 100 ms
 * window share one signal, made when the first of them starts and firing `timeoutMs + 100` later.
 * Every attempt is therefore aborted after at least `timeoutMs` and at most `timeoutMs + 100` ms.
 */
export class SharedDeadlines {
  private bucket = -1;
  private signal: AbortSignal | null = null;

  constructor(private readonly timeoutMs: number) {}

  /** The signal for an attempt starting now. */
  forAttempt(now = Date.now()): AbortSignal {
    const bucket = Math.floor(now / BUCKET_MS);
    if (bucket !== this.bucket || !this.signal) {
      this.bucket = bucket;
      this.signal = AbortSignal.timeout(this.timeoutMs + BUCKET_MS);
      // Every attempt in flight of the window listens to it: no leak warning for that.
      setMaxListeners(0, this.signal);
    }
    return this.signal;
  }
}
