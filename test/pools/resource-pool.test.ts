import { describe, expect, it, vi } from 'vitest';
import { ResourcePool } from '../../src/pools/resource-pool.js';

const never = new AbortController().signal;

describe('ResourcePool', () => {
  it('hands out up to each resource capacity in slots and prefers the least loaded', async () => {
    const pool = new ResourcePool<string>(1000);
    pool.add('a', 'us', 2, 'A');
    pool.add('b', 'US', 1, 'B');
    const l1 = await pool.acquire('US', 0, never);
    const l2 = await pool.acquire('US', 0, never);
    expect(new Set([l1?.resource.id, l2?.resource.id])).toEqual(new Set(['a', 'b']));
    const l3 = await pool.acquire('US', 0, never);
    expect(l3?.resource.id).toBe('a');
    expect(await pool.acquire('US', 0, never)).toBeNull();
    expect(await pool.acquire('KR', 0, never)).toBeNull();
  });

  it('wakes a waiter when a slot is released, and gives up when none frees in time', async () => {
    const pool = new ResourcePool<string>(1000);
    pool.add('a', 'KR', 1, 'A');
    const held = await pool.acquire('KR', 0, never);
    const waiting = pool.acquire('KR', 5_000, never);
    held?.release();
    expect((await waiting)?.resource.id).toBe('a');
    expect(await pool.acquire('KR', 20, never)).toBeNull();
  });

  it('cools a resource down after a block with doubling backoff, and re-enables it after', async () => {
    let now = 0;
    const pool = new ResourcePool<string>(100, () => now);
    pool.add('a', 'US', 1, 'A');
    pool.add('b', 'US', 1, 'B');
    const l = await pool.acquire('US', 0, never);
    const blocked = l!.resource.id;
    l!.release('cooldown');
    const other = await pool.acquire('US', 0, never);
    expect(other?.resource.id).not.toBe(blocked);
    other!.release();
    // Only the other one is usable while the first rests.
    const x = await pool.acquire('US', 0, never);
    expect(x?.resource.id).not.toBe(blocked);
    x!.release();
    now = 100;
    const r = pool.list().find((p) => p.id === blocked)!;
    expect(pool.coolingUntil(r)).toBe(0);
    expect(r.cooldowns.get('*')?.until).toBe(100);
    // A second strike doubles the rest.
    const again = await pool.acquire('US', 0, never, { filter: (p) => p.id === blocked });
    again!.release('cooldown');
    expect(pool.coolingUntil(r)).toBe(100 + 200);
    now = 300;
    const ok = await pool.acquire('US', 0, never, { filter: (p) => p.id === blocked });
    ok!.release('ok');
    expect(r.cooldowns.size).toBe(0);
  });

  it('rests a resource only for the upstream that refused it', async () => {
    let now = 0;
    const pool = new ResourcePool<string>(100, () => now);
    pool.add('a', 'US', 4, 'A');
    const google = await pool.acquire('US', 0, never, { scope: 'www.google.com' });
    google!.release('cooldown');
    // Google refused: the address rests for Google, and still serves Bing at once.
    expect(await pool.acquire('US', 0, never, { scope: 'www.google.com' })).toBeNull();
    const bing = await pool.acquire('US', 0, never, { scope: 'www.bing.com' });
    expect(bing?.resource.id).toBe('a');
    bing!.release('ok');
    const r = pool.get('a')!;
    expect(pool.coolingUntil(r, 'www.google.com')).toBe(100);
    expect(pool.coolingUntil(r, 'www.bing.com')).toBe(0);
    expect(pool.activeCooldowns(r)).toEqual([{ scope: 'www.google.com', until: 100, strikes: 1 }]);
    // A Bing success leaves Google's strikes alone: the next Google refusal doubles the rest.
    now = 100;
    const again = await pool.acquire('US', 0, never, { scope: 'www.google.com' });
    again!.release('cooldown');
    expect(pool.coolingUntil(r, 'www.google.com')).toBe(100 + 200);
  });

  it('a waiter for a resting upstream wakes when the rest ends', async () => {
    let now = 0;
    const pool = new ResourcePool<string>(30, () => now);
    pool.add('a', 'US', 1, 'A');
    (await pool.acquire('US', 0, never, { scope: 'x' }))!.release('cooldown');
    const waiting = pool.acquire('US', 5_000, never, { scope: 'x' });
    now = 30;
    expect((await waiting)?.resource.id).toBe('a');
  });

  it('skips disabled resources and counts only enabled ones', async () => {
    const pool = new ResourcePool<string>(100);
    pool.add('a', 'US', 1, 'A');
    expect(pool.setDisabled('a', true)).toBe(true);
    expect(pool.countFor('US')).toBe(0);
    expect(await pool.acquire('US', 0, never)).toBeNull();
    pool.setDisabled('a', false);
    expect(pool.countFor('US')).toBe(1);
    expect(pool.setDisabled('zzz', true)).toBe(false);
  });

  it('stops waiting when the attempt is aborted', async () => {
    const pool = new ResourcePool<string>(100);
    pool.add('a', 'US', 1, 'A');
    await pool.acquire('US', 0, never);
    const ac = new AbortController();
    const p = pool.acquire('US', 60_000, ac.signal);
    ac.abort();
    expect(await p).toBeNull();
  });

  it('releasing twice does not free two slots', async () => {
    const pool = new ResourcePool<string>(100);
    pool.add('a', 'US', 1, 'A');
    const l = await pool.acquire('US', 0, never);
    l!.release();
    l!.release();
    expect(pool.list()[0]!.inUse).toBe(0);
  });

  it('offers what acquire would pick, least loaded first; adopts a stored lease only where it would', async () => {
    let now = 0;
    const pool = new ResourcePool<string>(100, () => now);
    const freed: string[] = [];
    pool.useLedger({ acquire: async () => 'ledger-token', release: async (t) => void freed.push(t) });
    pool.add('a', 'US', 2, 'A');
    pool.add('b', 'US', 1, 'B');
    pool.add('c', 'DE', 1, 'C');
    pool.add('off', 'US', 1, 'OFF');
    pool.setDisabled('off', true);
    const held = await pool.acquire('US', 0, never, { scope: 'google' });
    expect(held?.resource.id).toBe('a');
    // b (idle) before a (one of two used); c; never the disabled one.
    expect(pool.offer('google', 10).map((r) => r.id)).toEqual(['b', 'c', 'a']);
    expect(pool.offer('google', 2).map((r) => r.id)).toEqual(['b', 'c']);
    // b rests for google after a refusal: not offered for google, still for another upstream.
    const slot = pool.adopt('b', 'lease-b1', 'US', 'google');
    expect(slot?.resource.id).toBe('b');
    slot!.release('cooldown');
    expect(pool.offer('google', 10).map((r) => r.id)).not.toContain('b');
    expect(pool.offer('bing', 10).map((r) => r.id)).toContain('b');
    // An adopted slot's release frees it here only: the store's lease goes with the task's finish.
    expect(freed).toEqual([]);
    // Refused, and the store's lease freed at once: resting for that upstream, the wrong country, disabled, unknown.
    expect(pool.adopt('b', 'lease-b2', 'US', 'google')).toBeNull();
    expect(pool.adopt('c', 'lease-c', 'US', 'google')).toBeNull();
    expect(pool.adopt('off', 'lease-off', null, 'google')).toBeNull();
    expect(pool.adopt('gone', 'lease-gone', null, 'google')).toBeNull();
    await Promise.resolve();
    expect(freed).toEqual(['lease-b2', 'lease-c', 'lease-off', 'lease-gone']);
    // Any country when the task has none; full here is refused too.
    const any = pool.adopt('c', 'lease-c2', null, 'google');
    expect(any?.resource.id).toBe('c');
    expect(pool.adopt('c', 'lease-c3', 'DE', 'google')).toBeNull();
    now += 1_000;
    expect(pool.offer('google', 10).map((r) => r.id)).toEqual(['b', 'a']);
  });

  it('frees a stored slot here once the store has, or after a bound when the store does not answer', async () => {
    vi.useFakeTimers();
    try {
      const pool = new ResourcePool<string>(1000);
      let answer: () => void = () => undefined;
      // The first release is answered when the test says; the second never.
      const answers = [new Promise<void>((r) => (answer = r)), new Promise<void>(() => undefined)];
      pool.useLedger({ acquire: async () => 'token', release: () => answers.shift()! });
      pool.add('a', 'KR', 1, 'A');
      const first = await pool.acquire('KR', 0, never);
      // A refusal's rest counts at once, before the store has answered.
      first!.release('cooldown');
      expect(pool.coolingUntil(pool.get('a')!)).toBeGreaterThan(0);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(pool.get('a')?.inUse).toBe(1);
      answer();
      await vi.advanceTimersByTimeAsync(0);
      expect(pool.get('a')?.inUse).toBe(0);
      await vi.advanceTimersByTimeAsync(1_000); // the rest ends
      const second = await pool.acquire('KR', 0, never);
      second!.release();
      await vi.advanceTimersByTimeAsync(4_900);
      expect(pool.get('a')?.inUse).toBe(1);
      await vi.advanceTimersByTimeAsync(200);
      expect(pool.get('a')?.inUse).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
