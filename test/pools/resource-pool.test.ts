import { describe, expect, it } from 'vitest';
import { ResourcePool } from '../../src/pools/resource-pool.js';

const never = new AbortController().signal;

describe('ResourcePool', () => {
  it('leases up to each resource capacity and prefers the least loaded', async () => {
    const pool = new ResourcePool<string>(1000);
    pool.add('a', 'us', 2, 'A');
    pool.add('b', 'US', 1, 'B');
    const l1 = await pool.lease('US', 0, never);
    const l2 = await pool.lease('US', 0, never);
    expect(new Set([l1?.resource.id, l2?.resource.id])).toEqual(new Set(['a', 'b']));
    const l3 = await pool.lease('US', 0, never);
    expect(l3?.resource.id).toBe('a');
    expect(await pool.lease('US', 0, never)).toBeNull();
    expect(await pool.lease('KR', 0, never)).toBeNull();
  });

  it('wakes a waiter when a lease is released, and gives up when none frees in time', async () => {
    const pool = new ResourcePool<string>(1000);
    pool.add('a', 'KR', 1, 'A');
    const held = await pool.lease('KR', 0, never);
    const waiting = pool.lease('KR', 5_000, never);
    held?.release();
    expect((await waiting)?.resource.id).toBe('a');
    expect(await pool.lease('KR', 20, never)).toBeNull();
  });

  it('cools a resource down after a block with doubling backoff, and re-enables it after', async () => {
    let now = 0;
    const pool = new ResourcePool<string>(100, () => now);
    pool.add('a', 'US', 1, 'A');
    pool.add('b', 'US', 1, 'B');
    const l = await pool.lease('US', 0, never);
    const blocked = l!.resource.id;
    l!.release('cooldown');
    const other = await pool.lease('US', 0, never);
    expect(other?.resource.id).not.toBe(blocked);
    other!.release();
    // Only the other one is usable while the first rests.
    const x = await pool.lease('US', 0, never);
    expect(x?.resource.id).not.toBe(blocked);
    x!.release();
    now = 100;
    const r = pool.list().find((p) => p.id === blocked)!;
    expect(r.coolUntil).toBe(100);
    // A second strike doubles the rest.
    const again = await pool.lease('US', 0, never, { filter: (p) => p.id === blocked });
    again!.release('cooldown');
    expect(r.coolUntil).toBe(100 + 200);
    now = 300;
    const ok = await pool.lease('US', 0, never, { filter: (p) => p.id === blocked });
    ok!.release('ok');
    expect(r.strikes).toBe(0);
  });

  it('skips disabled resources and counts only enabled ones', async () => {
    const pool = new ResourcePool<string>(100);
    pool.add('a', 'US', 1, 'A');
    expect(pool.setDisabled('a', true)).toBe(true);
    expect(pool.countFor('US')).toBe(0);
    expect(await pool.lease('US', 0, never)).toBeNull();
    pool.setDisabled('a', false);
    expect(pool.countFor('US')).toBe(1);
    expect(pool.setDisabled('zzz', true)).toBe(false);
  });

  it('stops waiting when the attempt is aborted', async () => {
    const pool = new ResourcePool<string>(100);
    pool.add('a', 'US', 1, 'A');
    await pool.lease('US', 0, never);
    const ac = new AbortController();
    const p = pool.lease('US', 60_000, ac.signal);
    ac.abort();
    expect(await p).toBeNull();
  });

  it('releasing twice does not free two slots', async () => {
    const pool = new ResourcePool<string>(100);
    pool.add('a', 'US', 1, 'A');
    const l = await pool.lease('US', 0, never);
    l!.release();
    l!.release();
    expect(pool.list()[0]!.inUse).toBe(0);
  });
});
