import type { SlotLedger } from './slot-ledger.js';

/**
 * A pool of resources (exit addresses or accounts) handed out as slots. Each resource has `capacity`
 * slots, can be disabled, and rests (cooldown with backoff) after a block or 429.
 * A rest is scoped to the upstream that refused: Google blocking an address says nothing about
 * Bing on the same address, so a slot names its upstream and skips only the rests of that one.
 * Waiters are woken when a slot is released.
 */

/** One upstream's rest of a resource. */
interface Cooldown {
  until: number;
  /** Consecutive refusals by this upstream; doubles the next rest. */
  strikes: number;
}

/** The scope of a slot that names no upstream (and of rests it causes). */
const ANY_UPSTREAM = '*';

export interface PoolResource<T> {
  id: string;
  country: string;
  capacity: number;
  value: T;
  disabled: boolean;
  inUse: number;
  /**
   * Rests by upstream scope (see `ResourcePool.acquire`). An entry outlives its rest, so a repeated
   * refusal doubles the next one; a successful slot for that upstream removes it.
   */
  cooldowns: Map<string, Cooldown>;
  lastUsedAt: number;
  /** Another process holds it to capacity (per the shared ledger): skip it until then. */
  busyElsewhereUntil: number;
}

/** A resource held for one attempt, until `release`. */
export interface PoolSlot<T> {
  resource: PoolResource<T>;
  /** `restAtLeastMs`: with 'cooldown', the rest lasts at least this long (the upstream's Retry-After). */
  release(outcome?: 'ok' | 'cooldown' | 'unused', restAtLeastMs?: number): void;
}

/** How long a resource another process holds to capacity is skipped before asking again. */
const LEDGER_RECHECK_MS = 100;
/**
 * How long a slot's release here waits for the store to free it: past that (a store that does not answer), it is
 * freed here anyway, as a refused ask costs a recheck, while a slot never freed here would be lost to this process.
 */
const LEDGER_RELEASE_WAIT_MS = 5_000;

export class ResourcePool<T> {
  private readonly resources = new Map<string, PoolResource<T>>();
  private waiters: Array<() => void> = [];
  private ledger: SlotLedger | null = null;

  constructor(
    private readonly baseCooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  add(id: string, country: string, capacity: number, value: T): void {
    this.resources.set(id, {
      id,
      country: country.toUpperCase(),
      capacity,
      value,
      disabled: false,
      inUse: 0,
      cooldowns: new Map(),
      lastUsedAt: 0,
      busyElsewhereUntil: 0,
    });
    this.wake();
  }

  setDisabled(id: string, disabled: boolean): boolean {
    const r = this.resources.get(id);
    if (!r) return false;
    r.disabled = disabled;
    if (!disabled) {
      r.cooldowns.clear();
      this.wake();
    }
    return true;
  }

  /**
   * Takes a resource out of the pool. A slot already granted keeps its (now detached) resource and
   * releases it normally, so an attempt in progress finishes; no new slot can pick it.
   */
  remove(id: string): PoolResource<T> | null {
    const r = this.resources.get(id);
    if (!r) return null;
    this.resources.delete(id);
    // Waiters re-check: the pool they wait on may now be empty for their country.
    this.wake();
    return r;
  }

  get(id: string): PoolResource<T> | undefined {
    return this.resources.get(id);
  }

  /** Shares slots with other worker processes through the store (scale-out). */
  useLedger(ledger: SlotLedger): void {
    this.ledger = ledger;
  }

  list(): PoolResource<T>[] {
    return [...this.resources.values()];
  }

  /** Until when `r` rests for `scope` (0 if it does not); without a scope, its latest rest for any upstream. */
  coolingUntil(r: PoolResource<T>, scope?: string): number {
    let t = 0;
    if (scope !== undefined) t = restUntil(r, scope);
    else for (const c of r.cooldowns.values()) t = Math.max(t, c.until);
    return t > this.now() ? t : 0;
  }

  /** Rests still running, by upstream scope. */
  activeCooldowns(r: PoolResource<T>): Array<{ scope: string; until: number; strikes: number }> {
    const t = this.now();
    return [...r.cooldowns]
      .filter(([, c]) => c.until > t)
      .map(([scope, c]) => ({ scope, until: c.until, strikes: c.strikes }));
  }

  /** Resources that could serve `country` at some point (enabled), whatever their load. */
  countFor(country: string, filter: (r: PoolResource<T>) => boolean = () => true): number {
    let n = 0;
    for (const r of this.resources.values()) if (!r.disabled && r.country === country && filter(r)) n++;
    return n;
  }

  private pick(
    country: string | null,
    scope: string,
    exclude: ReadonlySet<string>,
    filter: (r: PoolResource<T>) => boolean,
  ): PoolResource<T> | undefined {
    const t = this.now();
    let best: PoolResource<T> | undefined;
    for (const r of this.resources.values()) {
      if (!pickable(r, scope, t) || exclude.has(r.id) || !filter(r)) continue;
      if (country !== null && r.country !== country) continue;
      // Least-loaded first, then least recently used, so load spreads over the pool.
      if (!best || r.inUse < best.inUse || (r.inUse === best.inUse && r.lastUsedAt < best.lastUsedAt)) best = r;
    }
    return best;
  }

  /**
   * Takes a slot of a resource for `country` (any country when null), waiting up to `waitMs` for one to free.
   * Resources in `exclude` (those that just failed this task) are skipped while others exist.
   * `scope` names the upstream the slot is for: resources resting for it are skipped, and a
   * 'cooldown' release rests the resource for it alone.
   */
  async acquire(
    country: string | null,
    waitMs: number,
    signal: AbortSignal,
    opts: {
      exclude?: ReadonlySet<string>;
      filter?: (r: PoolResource<T>) => boolean;
      holdMs?: number;
      scope?: string;
    } = {},
  ): Promise<PoolSlot<T> | null> {
    const filter = opts.filter ?? (() => true);
    const scope = opts.scope ?? ANY_UPSTREAM;
    const deadline = this.now() + waitMs;
    for (;;) {
      const r =
        this.pick(country, scope, opts.exclude ?? new Set(), filter) ??
        (opts.exclude?.size ? this.pick(country, scope, new Set(), filter) : undefined);
      if (r) {
        if (!this.ledger) return this.grant(r, scope);
        const taken = this.take(r, scope);
        // Reserved here; now the other processes' slots decide.
        const token = await this.ledger.acquire(r.id, r.capacity, opts.holdMs ?? 120_000).catch(() => null);
        if (token) return this.withLedgerToken(r, taken, this.ledger, token);
        taken.judge('unused');
        taken.free();
        r.busyElsewhereUntil = this.now() + LEDGER_RECHECK_MS;
        continue;
      }
      const left = deadline - this.now();
      if (left <= 0 || signal.aborted) return null;
      // Releases in other processes wake nobody here: with a ledger, look again soon.
      const ceiling = this.ledger ? LEDGER_RECHECK_MS : Infinity;
      await this.waitForRelease(Math.min(left, ceiling, this.nextCoolEnd(country, scope) - this.now()), signal);
    }
  }

  /**
   * The resources `acquire` would pick from now for `scope`, least loaded first, then least recently used: offered to
   * a claim that leases them in the store (ClaimRequest.exitOffer). At most `max`, so the claim's search stays short.
   */
  offer(scope: string, max: number): Array<{ id: string; country: string; capacity: number }> {
    const t = this.now();
    return [...this.resources.values()]
      .filter((r) => pickable(r, scope, t))
      .sort((x, y) => x.inUse - y.inUse || x.lastUsedAt - y.lastUsedAt)
      .slice(0, max)
      .map((r) => ({ id: r.id, country: r.country, capacity: r.capacity }));
  }

  /**
   * A slot of the resource the store already leased (the claim's lease, `ledgerToken`), if this pool would still give
   * it for `country` and `scope`: enabled, not resting, not full here. Its release frees it here only: the store's
   * lease is freed with the task's finish. Null when refused; the store's lease is then freed at once, and the caller
   * acquires as usual.
   */
  adopt(
    resourceId: string,
    ledgerToken: string,
    country: string | null,
    scope: string = ANY_UPSTREAM,
  ): PoolSlot<T> | null {
    const r = this.resources.get(resourceId);
    const usable =
      r !== undefined &&
      !r.disabled &&
      r.inUse < r.capacity &&
      restUntil(r, scope) <= this.now() &&
      (country === null || r.country === country);
    if (usable) return this.grant(r, scope);
    void this.ledger?.release(ledgerToken).catch(() => undefined);
    return null;
  }

  /**
   * A slot also recorded in the store. Its release records the verdict here at once, but gives the slot back here only
   * once the store has freed it (or failed to, or 5 s passed): given back first, a waiter woken by it asked the store
   * while the store still held the slot, was refused, and skipped the resource until its recheck (for good, on a clock
   * that stands still).
   */
  private withLedgerToken(
    r: PoolResource<T>,
    taken: ReturnType<ResourcePool<T>['take']>,
    ledger: SlotLedger,
    token: string,
  ): PoolSlot<T> {
    return {
      resource: r,
      release: (outcome, restAtLeastMs) => {
        if (!taken.judge(outcome, restAtLeastMs)) return;
        let timer: NodeJS.Timeout | undefined;
        const waited = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, LEDGER_RELEASE_WAIT_MS);
          timer.unref();
        });
        void Promise.race([ledger.release(token).catch(() => undefined), waited]).then(() => {
          clearTimeout(timer);
          taken.free();
        });
      },
    };
  }

  private nextCoolEnd(country: string | null, scope: string): number {
    let t = Infinity;
    for (const r of this.resources.values()) {
      const until = restUntil(r, scope);
      if (!r.disabled && (country === null || r.country === country) && until > this.now()) t = Math.min(t, until);
    }
    return t;
  }

  private grant(r: PoolResource<T>, scope: string): PoolSlot<T> {
    const taken = this.take(r, scope);
    return {
      resource: r,
      release: (outcome, restAtLeastMs) => {
        if (taken.judge(outcome, restAtLeastMs)) taken.free();
      },
    };
  }

  /**
   * A slot of `r` taken for `scope`, released in two steps: `judge` records the attempt's verdict on the resource
   * (a rest after a refusal, none after a success; false if it was already released), `free` gives the slot back
   * and wakes the waiters.
   */
  private take(
    r: PoolResource<T>,
    scope: string,
  ): { judge(outcome?: 'ok' | 'cooldown' | 'unused', restAtLeastMs?: number): boolean; free(): void } {
    r.inUse++;
    r.lastUsedAt = this.now();
    let released = false;
    return {
      judge: (outcome = 'ok', restAtLeastMs = 0) => {
        if (released) return false;
        released = true;
        if (outcome === 'unused') {
          // Never used (the ledger refused it): no verdict on its health.
        } else if (outcome === 'cooldown') {
          const strikes = (r.cooldowns.get(scope)?.strikes ?? 0) + 1;
          const restMs = Math.max(this.baseCooldownMs * 2 ** Math.min(strikes - 1, 6), restAtLeastMs);
          r.cooldowns.set(scope, { strikes, until: this.now() + restMs });
        } else {
          r.cooldowns.delete(scope);
        }
        return true;
      },
      free: () => {
        r.inUse--;
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

/**
 * Whether `acquire` may pick `r` for `scope` at `t`: enabled, not full in this process, not resting for that upstream,
 * and not held to capacity by another process (per the shared ledger's last answer).
 */
function pickable(r: PoolResource<unknown>, scope: string, t: number): boolean {
  return !r.disabled && r.inUse < r.capacity && restUntil(r, scope) <= t && r.busyElsewhereUntil <= t;
}

/** When `r` stops resting for `scope`: a rest for that upstream, or one a scopeless slot caused. */
function restUntil(r: PoolResource<unknown>, scope: string): number {
  const own = r.cooldowns.get(scope)?.until ?? 0;
  return scope === ANY_UPSTREAM ? own : Math.max(own, r.cooldowns.get(ANY_UPSTREAM)?.until ?? 0);
}
