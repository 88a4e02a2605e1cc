import { expect, it } from 'vitest';
import { ResourcePool } from '../../../src/pools/resource-pool.js';
import { storeLedger } from '../../../src/pools/slot-ledger.js';
import { claimArgs, completed, forEachStore, T0, task } from './driver.js';

/**
 * PoolSlots (src/store/ports.ts): the database's record of exit-address and account leases, on PostgreSQL, where
 * several worker processes share them. The embedded store has none: its one process counts its pools in memory.
 */
forEachStore('pool slots', (s, kind) => {
  it.skipIf(kind !== 'sqlite')('the embedded store has none: its one process counts its pools in memory', () => {
    expect(s.store.poolSlots).toBeNull();
  });

  it.skipIf(kind !== 'postgres')(
    'pool slots hold a resource to capacity under concurrent acquires, free it on release or expiry',
    async () => {
      const acquire = (capacity: number, now = T0, expires = T0 + 10_000) =>
        s.store.poolSlots!.acquire({ resourceId: 'exit-1', capacity, now, expiresAt: expires });
      const first = await Promise.all(Array.from({ length: 10 }, () => acquire(3)));
      const held = first.filter((t): t is string => t !== null);
      expect(held).toHaveLength(3);
      expect(await acquire(3)).toBeNull();
      await s.store.poolSlots!.release(held[0]!);
      expect(await acquire(3)).not.toBeNull();
      expect(await acquire(3)).toBeNull();
      // A raised capacity is usable at once; a lowered one admits nobody while it is exceeded.
      expect(await acquire(5)).not.toBeNull();
      expect(await acquire(5)).not.toBeNull();
      expect(await acquire(5)).toBeNull();
      expect(await acquire(2)).toBeNull();
      // Another resource is counted apart.
      expect(
        await s.store.poolSlots!.acquire({ resourceId: 'exit-2', capacity: 1, now: T0, expiresAt: T0 + 10_000 }),
      ).not.toBeNull();
      // Leases run out: at their expiry the whole capacity is free again.
      const later = await Promise.all(Array.from({ length: 8 }, () => acquire(5, T0 + 10_000, T0 + 20_000)));
      expect(later.filter((t) => t !== null)).toHaveLength(5);
    },
  );

  it.skipIf(kind !== 'postgres')(
    'pool slots asked for together over several resources: each to its capacity, as its slots grow',
    async () => {
      // One turn: on PostgreSQL one call for all of them, the slots of each resource made as needed.
      const asks = Array.from({ length: 300 }, (_, i) =>
        i % 3 === 0
          ? s.store.poolSlots!.acquire({ resourceId: 'exit-small', capacity: 40, now: T0, expiresAt: T0 + 10_000 })
          : s.store.poolSlots!.acquire({ resourceId: 'exit-large', capacity: 150, now: T0, expiresAt: T0 + 10_000 }),
      );
      const tokens = await Promise.all(asks);
      const granted = tokens.filter((t): t is string => t !== null);
      expect(tokens.filter((t, i) => t !== null && i % 3 === 0)).toHaveLength(40);
      expect(tokens.filter((t, i) => t !== null && i % 3 !== 0)).toHaveLength(150);
      expect(new Set(granted).size).toBe(granted.length);
      // Released together, they are free together.
      await Promise.all(granted.map((t) => s.store.poolSlots!.release(t)));
      const again = await Promise.all(
        Array.from({ length: 41 }, () =>
          s.store.poolSlots!.acquire({ resourceId: 'exit-small', capacity: 40, now: T0, expiresAt: T0 + 10_000 }),
        ),
      );
      expect(again.filter((t) => t !== null)).toHaveLength(40);
    },
  );
});

/**
 * The claim's lease of exit addresses (ClaimRequest.exitOffer): on PostgreSQL the claim gives each task an offered
 * address of its country, round robin, within each address's capacity across processes, and the finish frees it.
 * The embedded store ignores the offer (its pools count in memory when the attempt starts).
 */
forEachStore('exit leases in the claim', (s, kind) => {
  const offer = (resources: Array<{ id: string; country: string; capacity: number }>) => ({
    resources,
    defaultCountry: 'US',
    holdMs: 60_000,
  });

  it.skipIf(kind !== 'sqlite')('the embedded store claims as before and leases nothing', async () => {
    await s.store.tasks.insert({ tasks: [task()] });
    const [c] = await s.store.tasks.claim({
      ...claimArgs(),
      exitOffer: offer([{ id: 'x', country: 'US', capacity: 1 }]),
    });
    expect(c).toBeDefined();
    expect(c?.exitLease).toBeUndefined();
  });

  it.skipIf(kind !== 'postgres')(
    'each task gets an address of its country, round robin, within capacity; the finish frees it',
    async () => {
      // Six US tasks (no country: the engine's default), two DE tasks, one JP task that no offered address serves.
      const us = Array.from({ length: 6 }, () => task());
      const de = [task({ country: 'DE' }), task({ country: 'DE' })];
      const jp = task({ country: 'JP' });
      await s.store.tasks.insert({ tasks: [...us, ...de, jp] });
      // Another process already holds us-b's one slot.
      const elsewhere = await s.store.poolSlots!.acquire({
        resourceId: 'us-b',
        capacity: 1,
        now: T0,
        expiresAt: T0 + 60_000,
      });
      expect(elsewhere).not.toBeNull();
      const claimed = await s.store.tasks.claim({
        ...claimArgs({ limit: 20, concurrency: 20 }),
        exitOffer: offer([
          { id: 'us-a', country: 'US', capacity: 2 },
          { id: 'us-b', country: 'US', capacity: 1 },
          { id: 'de-a', country: 'DE', capacity: 5 },
          { id: 'us-c', country: 'US', capacity: 2 },
        ]),
      });
      expect(claimed).toHaveLength(9);
      const byId = new Map(claimed.map((c) => [c.id, c]));
      const usLeases = us.map((t) => byId.get(t.id)?.exitLease?.resourceId ?? null);
      // us-a and us-c to capacity (2 each), us-b refused (held elsewhere): four US tasks leased, two to lease later.
      expect(usLeases.filter((r) => r === 'us-a')).toHaveLength(2);
      expect(usLeases.filter((r) => r === 'us-c')).toHaveLength(2);
      expect(usLeases.filter((r) => r === null)).toHaveLength(2);
      expect(de.map((t) => byId.get(t.id)?.exitLease?.resourceId)).toEqual(['de-a', 'de-a']);
      expect(byId.get(jp.id)?.exitLease).toBeUndefined();
      // The slots are the store's: us-a is full for everyone else now.
      expect(
        await s.store.poolSlots!.acquire({ resourceId: 'us-a', capacity: 2, now: T0, expiresAt: T0 + 60_000 }),
      ).toBeNull();
      // A finish frees its task's slot, even when the fence refuses the task's own write.
      const holder = claimed.find((c) => c.exitLease?.resourceId === 'us-a')!;
      expect(
        await s.store.tasks.finish({
          id: holder.id,
          leaseToken: 'a-stale-token',
          write: completed(),
          now: T0 + 1,
          releaseSlot: holder.exitLease!.slotToken,
        }),
      ).toBe(false);
      const freed = await s.store.poolSlots!.acquire({
        resourceId: 'us-a',
        capacity: 2,
        now: T0,
        expiresAt: T0 + 60_000,
      });
      expect(freed).not.toBeNull();
      // A slot taken over by another lease is not freed by a late finish naming the old lease.
      expect(
        await s.store.tasks.finish({
          id: holder.id,
          leaseToken: holder.leaseToken,
          write: completed(),
          now: T0 + 2,
          releaseSlot: holder.exitLease!.slotToken,
        }),
      ).toBe(true);
      expect(
        await s.store.poolSlots!.acquire({ resourceId: 'us-a', capacity: 2, now: T0, expiresAt: T0 + 60_000 }),
      ).toBeNull();
    },
  );

  it.skipIf(kind !== 'postgres')('a claim given back frees the addresses it leased, and no other', async () => {
    const [a, b] = [task({ createdAt: T0 }), task({ createdAt: T0 + 1 })];
    await s.store.tasks.insert({ tasks: [a, b] });
    const only = (id: string) => offer([{ id, country: 'US', capacity: 1 }]);
    const [kept] = await s.store.tasks.claim({ ...claimArgs({ limit: 1 }), exitOffer: only('solo') });
    const [failed] = await s.store.tasks.claim({
      ...claimArgs({ leaseToken: 'lost-claim' }),
      exitOffer: only('other'),
    });
    expect([kept?.exitLease?.resourceId, failed?.exitLease?.resourceId]).toEqual(['solo', 'other']);
    const full = () => s.store.poolSlots!.acquire({ resourceId: 'other', capacity: 1, now: T0, expiresAt: T0 + 1 });
    expect(await full()).toBeNull();
    expect(await s.store.tasks.abandonClaim({ leaseToken: 'lost-claim', now: T0 + 2000 })).toBe(1);
    expect(await full()).not.toBeNull();
    // The first claim's address stays held.
    expect(
      await s.store.poolSlots!.acquire({ resourceId: 'solo', capacity: 1, now: T0, expiresAt: T0 + 1 }),
    ).toBeNull();
  });

  it.skipIf(kind !== 'postgres')(
    'a slot freed here goes to the next waiter only once the store has freed it: no refusal, no wait for a recheck',
    async () => {
      // A clock that stands still (as a test's does): a refusal's recheck time would never come, and the waiter
      // would wait for good. Every hand-over must therefore find the store's slot free at its first ask.
      const pool = new ResourcePool<string>(60_000, () => T0);
      pool.add('account-1', 'KR', 1, 'key');
      // The service's ledger over the store, counting refusals, its releases reaching a store slow to commit.
      const ledger = storeLedger(s.store.poolSlots!, () => T0);
      let refused = 0;
      pool.useLedger({
        acquire: async (resourceId, capacity, holdMs) => {
          const token = await ledger.acquire(resourceId, capacity, holdMs);
          if (token === null) refused++;
          return token;
        },
        release: async (token) => {
          await new Promise((r) => setTimeout(r, 5));
          await ledger.release(token);
        },
      });
      const take = () => pool.acquire('KR', 5_000, AbortSignal.timeout(3_000));
      let held = await take();
      for (let i = 0; i < 40; i++) {
        const next = take(); // waits: the one slot is held
        held!.release();
        held = await next;
        expect(held, `hand-over ${i}`).not.toBeNull();
      }
      expect(refused).toBe(0);
    },
  );
});
