import { expect, it } from 'vitest';
import { forEachStore, T0 } from './driver.js';

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
