/**
 * A pool of leasable resources (exit addresses or accounts). Each resource allows `capacity`
 * concurrent leases, can be disabled, and rests (cooldown with backoff) after a block or 429.
 * Waiters are woken when a lease is released.
 */
export interface PoolResource<T> {
  id: string;
  country: string;
  capacity: number;
  value: T;
  disabled: boolean;
  inUse: number;
  coolUntil: number;
  /** Consecutive failures that caused a cooldown; doubles the next one. */
  strikes: number;
  lastUsedAt: number;
}

export interface Lease<T> {
  resource: PoolResource<T>;
  release(outcome?: 'ok' | 'cooldown'): void;
}

export class ResourcePool<T> {
  private readonly resources = new Map<string, PoolResource<T>>();
  private waiters: Array<() => void> = [];

  constructor(
    private readonly baseCooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  add(id: string, country: string, capacity: number, value: T): void {
    this.resources.set(id, { id, country: country.toUpperCase(), capacity, value, disabled: false, inUse: 0, coolUntil: 0, strikes: 0, lastUsedAt: 0 });
    this.wake();
  }

  setDisabled(id: string, disabled: boolean): boolean {
    const r = this.resources.get(id);
    if (!r) return false;
    r.disabled = disabled;
    if (!disabled) {
      r.coolUntil = 0;
      this.wake();
    }
    return true;
  }

  list(): PoolResource<T>[] {
    return [...this.resources.values()];
  }

  /** Resources that could serve `country` at some point (enabled), whatever their load. */
  countFor(country: string, filter: (r: PoolResource<T>) => boolean = () => true): number {
    let n = 0;
    for (const r of this.resources.values()) if (!r.disabled && r.country === country && filter(r)) n++;
    return n;
  }

  private pick(country: string | null, exclude: ReadonlySet<string>, filter: (r: PoolResource<T>) => boolean): PoolResource<T> | undefined {
    const t = this.now();
    let best: PoolResource<T> | undefined;
    for (const r of this.resources.values()) {
      if (r.disabled || r.inUse >= r.capacity || r.coolUntil > t || exclude.has(r.id) || !filter(r)) continue;
      if (country !== null && r.country !== country) continue;
      // Least-loaded first, then least recently used, so load spreads over the pool.
      if (!best || r.inUse < best.inUse || (r.inUse === best.inUse && r.lastUsedAt < best.lastUsedAt)) best = r;
    }
    return best;
  }

  /**
   * Leases a resource for `country` (any country when null), waiting up to `waitMs` for one to free.
   * Resources in `exclude` (those that just failed this task) are skipped while others exist.
   */
  async lease(
    country: string | null,
    waitMs: number,
    signal: AbortSignal,
    opts: { exclude?: ReadonlySet<string>; filter?: (r: PoolResource<T>) => boolean } = {},
  ): Promise<Lease<T> | null> {
    const filter = opts.filter ?? (() => true);
    const deadline = this.now() + waitMs;
    for (;;) {
      const r = this.pick(country, opts.exclude ?? new Set(), filter) ?? (opts.exclude?.size ? this.pick(country, new Set(), filter) : undefined);
      if (r) return this.grant(r);
      const left = deadline - this.now();
      if (left <= 0 || signal.aborted) return null;
      await this.waitForRelease(Math.min(left, this.nextCoolEnd(country) - this.now()), signal);
    }
  }

  private nextCoolEnd(country: string | null): number {
    let t = Infinity;
    for (const r of this.resources.values()) {
      if (!r.disabled && (country === null || r.country === country) && r.coolUntil > this.now()) t = Math.min(t, r.coolUntil);
    }
    return t;
  }

  private grant(r: PoolResource<T>): Lease<T> {
    r.inUse++;
    r.lastUsedAt = this.now();
    let released = false;
    return {
      resource: r,
      release: (outcome = 'ok') => {
        if (released) return;
        released = true;
        r.inUse--;
        if (outcome === 'cooldown') {
          r.strikes++;
          r.coolUntil = this.now() + this.baseCooldownMs * 2 ** Math.min(r.strikes - 1, 6);
        } else {
          r.strikes = 0;
        }
        this.wake();
      },
    };
  }

  private waitForRelease(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(1, Math.min(ms, 2_147_483_647)));
      signal.addEventListener('abort', done, { once: true });
      this.waiters.push(done);
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}
