import { Migrator, type Kysely, type Migration } from 'kysely';
import type { Database } from './schema.js';

/**
 * Names migrations were recorded under before each database had one list with one number per change (005 and 007
 * each named two changes): a database migrated then has its records renamed, in one statement, before it migrates.
 */
export const RENAMED_MIGRATIONS: Readonly<Record<string, string>> = {
  '005-pool-lease-function': '006-pool-lease-function',
  '006-partial-task-indexes': '007-partial-task-indexes',
  '007-pool-slots': '008-pool-slots',
  '007-webhook-attempt-details': '009-webhook-attempt-details',
  '008-webhook-redelivery': '010-webhook-redelivery',
  '009-batches': '011-batches',
  '010-accounts-and-keys': '012-accounts-and-keys',
  '011-account-isolation': '013-account-isolation',
  '012-account-counts': '014-account-counts',
  '013-usage-daily': '015-usage-daily',
  '014-c-collation-ids': '016-c-collation-ids',
  '015-monitors': '017-monitors',
  '016-monitor-run-counts': '018-monitor-run-counts',
  '017-worker-liveness': '019-worker-liveness',
  '018-worker-lock-keys': '020-worker-lock-keys',
  '019-claim-function': '021-claim-function',
  '020-pool-slots-batch': '022-pool-slots-batch',
  '021-webhook-secrets': '023-webhook-secrets',
  '022-task-failure': '024-task-failure',
  '023-monitor-run-trigger': '025-monitor-run-trigger',
};

/** Kysely's record of the migrations run (its default name). */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * Brings the schema to the last of `migrations`; throws what the migrator failed with. `schema`: where the
 * migrator's tables live, on a database with named schemas (Kysely looks across every schema otherwise, and would
 * take another deployment's tables in the same database for ours).
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  migrations: Readonly<Record<string, Migration>>,
  schema?: string,
): Promise<void> {
  // Kysely reads the catalog of every schema in the database to find its table, and PostgreSQL fails that read
  // (invalid_schema_name) when another client drops a schema meanwhile: tried again, a few times.
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(db, migrations, schema);
    } catch (e) {
      if (attempt >= SCHEMA_RACE_ATTEMPTS || (e as { code?: unknown }).code !== INVALID_SCHEMA_NAME) throw e;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}

/** PostgreSQL's error code for a schema that does not exist. */
const INVALID_SCHEMA_NAME = '3F000';
const SCHEMA_RACE_ATTEMPTS = 5;

async function migrateOnce(
  db: Kysely<Database>,
  migrations: Readonly<Record<string, Migration>>,
  schema: string | undefined,
): Promise<void> {
  if (await upToDate(db, migrations, schema)) return;
  await renameRecordedMigrations(db, schema);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...migrations }) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** The migrator's record of the migrations run, in `schema` when given. */
function recordsOf(db: Kysely<Database>, schema: string | undefined) {
  return (schema ? db.withSchema(schema) : db) as unknown as Kysely<{ [MIGRATION_TABLE]: { name: string } }>;
}

/**
 * True when the database has recorded exactly `migrations`, each once: nothing to run, and nothing the migrator would
 * refuse. One read, where the migrator reads the catalog of every schema, creates its tables if missing, then takes
 * its lock (a process waits for every other one starting at once): some 70 ms of each process's start on an
 * up-to-date database, which every worker pays again after a crash. Any other state, a missing table included, goes
 * the migrator's way.
 */
async function upToDate(
  db: Kysely<Database>,
  migrations: Readonly<Record<string, Migration>>,
  schema: string | undefined,
): Promise<boolean> {
  const records = recordsOf(db, schema);
  try {
    const recorded = (await records.selectFrom(MIGRATION_TABLE).select('name').execute()).map((r) => r.name).sort();
    const known = Object.keys(migrations).sort();
    return recorded.length === known.length && recorded.every((name, i) => name === known[i]);
  } catch {
    return false;
  }
}

/** Renames the records of a database migrated under the old names (RENAMED_MIGRATIONS); nothing on the others. */
async function renameRecordedMigrations(db: Kysely<Database>, schema: string | undefined): Promise<void> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === MIGRATION_TABLE && (schema === undefined || t.schema === schema))) return;
  const records = recordsOf(db, schema);
  const old = await records
    .selectFrom(MIGRATION_TABLE)
    .select('name')
    .where('name', 'in', Object.keys(RENAMED_MIGRATIONS))
    .execute();
  if (old.length === 0) return;
  await records.transaction().execute(async (trx) => {
    for (const { name } of old)
      await trx
        .updateTable(MIGRATION_TABLE)
        .set({ name: RENAMED_MIGRATIONS[name] ?? name })
        .where('name', '=', name)
        .execute();
  });
}
