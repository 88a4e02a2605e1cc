import type { Kysely } from 'kysely';
import type {
  Accounts,
  Batches,
  Figures,
  Monitors,
  Outbox,
  PoolSlots,
  RuntimeState,
  TaskQueue,
  Usage,
  WebhookSecrets,
  WorkerLiveness,
} from './ports.js';
import type { Database } from './schema.js';

/**
 * A store: every port (ports.ts) wired to one database's forms, and the database's life. Only the composition root
 * (app.ts) and the command line hold it; every other consumer takes its port. Made by `openSqliteStore()`
 * (sqlite/sqlite-store.ts) or `openPostgresStore()` (postgres/postgres-store.ts), the two places that say which form
 * of an operation runs on which database.
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly tasks: TaskQueue;
  readonly figures: Figures;
  readonly outbox: Outbox;
  readonly batches: Batches;
  readonly accounts: Accounts;
  readonly webhookSecrets: WebhookSecrets;
  readonly monitors: Monitors;
  readonly usage: Usage;
  readonly runtime: RuntimeState;
  /** PostgreSQL: several worker processes share exit addresses and accounts. Embedded: null (one process). */
  readonly poolSlots: PoolSlots | null;
  readonly workers: WorkerLiveness;
  /** The Kysely handle on the database, for the migrator and for tests and tools that read rows directly. */
  readonly db: Kysely<Database>;
  migrate(): Promise<void>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}
