/**
 * The cross-process side of a pool lease. Each worker picks resources from its own in-memory pool,
 * then records the lease in the shared store, which refuses it when the resource already has
 * `capacity` live leases in any process; so an account serves one conversation at a time across
 * every worker. Leases expire on their own (a worker that died frees its resources).
 */
export interface LeaseLedger {
  acquire(resourceId: string, capacity: number, holdMs: number): Promise<string | null>;
  release(token: string): Promise<void>;
}
