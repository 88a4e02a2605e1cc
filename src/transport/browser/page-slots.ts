import { UpstreamFailure } from '../../domain/engine-errors.js';

/**
 * Counting semaphore for the pages a process keeps open at once: each page costs a renderer
 * process (tens to hundreds of MB), so the bound protects the host, not the upstream.
 */
export class PageSlots {
  private used = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`page slots must be a positive integer, got ${size}`);
  }

  get inUse(): number {
    return this.used;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Resolves with a release function once a slot is free; rejects (and gives up its place) if `signal` aborts first.
   */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(abortedWhileWaiting());
    if (this.used < this.size) {
      this.used++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        this.used++;
        resolve(this.releaser());
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(abortedWhileWaiting());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(grant);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used--;
      this.waiters.shift()?.();
    };
  }
}

function abortedWhileWaiting(): UpstreamFailure {
  return new UpstreamFailure('TIMEOUT', 'attempt aborted while waiting for a free browser page');
}
