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
