import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from './dialect.js';
import type { Database } from './schema.js';
import * as m001 from './migrations/001-initial.js';
import * as m002 from './migrations/002-pool-leases.js';
import * as m003 from './migrations/003-runtime-changes.js';
import * as m004 from './migrations/004-webhook-lease-index.js';
import * as m006 from './migrations/006-partial-task-indexes.js';
import * as m007 from './migrations/007-webhook-attempt-details.js';
import * as m008 from './migrations/008-webhook-redelivery.js';
import * as m009 from './migrations/009-batches.js';
import * as m010 from './migrations/010-accounts-and-keys.js';
import * as m011 from './migrations/011-account-isolation.js';
import * as m013 from './migrations/013-usage-daily.js';
import * as m015 from './migrations/015-monitors.js';
import * as m016 from './migrations/016-monitor-run-counts.js';
import * as m017 from './migrations/017-worker-liveness.js';
import * as m021 from './migrations/021-webhook-secrets.js';
import * as m022 from './migrations/022-task-failure.js';
import * as m023 from './migrations/023-monitor-run-trigger.js';

/** Migrations of both dialects; a dialect may add its own (StoreDialect.migrations), named in the same order. */
const MIGRATIONS: Record<string, Migration> = {
  '001-initial': m001,
  '002-pool-leases': m002,
  '003-runtime-changes': m003,
  '004-webhook-lease-index': m004,
  '006-partial-task-indexes': m006,
  '007-webhook-attempt-details': m007,
  '008-webhook-redelivery': m008,
  '009-batches': m009,
  '010-accounts-and-keys': m010,
  '011-account-isolation': m011,
  '013-usage-daily': m013,
  '015-monitors': m015,
  '016-monitor-run-counts': m016,
  '017-worker-liveness': m017,
  '021-webhook-secrets': m021,
  '022-task-failure': m022,
  '023-monitor-run-trigger': m023,
};

/** Brings the schema to the latest migration of the dialect; throws what the migrator failed with. */
export async function migrateToLatest(db: Kysely<Database>, dialect: StoreDialect): Promise<void> {
  const schema = dialect.supportsSchemas
    ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
    : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...MIGRATIONS, ...dialect.migrations }) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
