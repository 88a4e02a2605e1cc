import type { PoolSlots } from '../store/ports.js';

/**
 * The cross-process side of a pool slot. Each worker picks resources from its own in-memory pool,
 * then records the slot in the shared store, which refuses it when the resource already has
 * `capacity` slots held in any process; so an account serves one conversation at a time across
 * every worker. A recorded slot expires on its own (a worker that died frees its resources).
 */
export interface SlotLedger {
  acquire(resourceId: string, capacity: number, holdMs: number): Promise<string | null>;
  release(token: string): Promise<void>;
}

/** The ledger over the store's pool slots, each slot recorded under `holder` (a worker's registration). */
export function storeLedger(slots: PoolSlots, now: () => number, holder?: string): SlotLedger {
  return {
    acquire: (resourceId, capacity, holdMs) =>
      slots.acquire({ resourceId, capacity, now: now(), expiresAt: now() + holdMs, ...(holder ? { holder } : {}) }),
    release: (token) => slots.release(token),
  };
}
