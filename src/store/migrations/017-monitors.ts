import { sql, type Kysely } from 'kysely';

/**
 * Visibility monitors (POST /v1/monitors): a row per monitor, its definition as JSON (`spec`), its status and next
 * scheduled time. Runs and their saved results follow the monitor, not the tasks' 24-hour retention
 * (`monitor_runs`); a run is unique per monitor and scheduled time, which makes each slot run once whichever
 * process gets there first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('monitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('spec', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('next_run_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('monitors_account').on('monitors').columns(['account_id', 'id']).execute();
  // The active monitors by their next time, for the scheduler's pass.
  await db.schema
    .createIndex('monitors_due')
    .on('monitors')
    .column('next_run_at')
    .where(sql.ref('status'), '=', 'active')
    .execute();
  await db.schema
    .createTable('monitor_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('monitor_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('slot_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('batch_id', 'text')
    // The monitor's definition when the slot was taken: an edit during the run changes the next run, not this one.
    .addColumn('spec', 'text', (c) => c.notNull())
    .addColumn('tasks', 'integer', (c) => c.notNull())
    .addColumn('results', 'text')
    .addColumn('metrics', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('monitor_runs_slot')
    .on('monitor_runs')
    .columns(['monitor_id', 'slot_at'])
    .unique()
    .execute();
  // The runs still open, for the scheduler's passes; and the runs by time, for the retention's deletions.
  await db.schema
    .createIndex('monitor_runs_open')
    .on('monitor_runs')
    .columns(['status', 'created_at'])
    .where(sql.ref('status'), '<>', 'completed')
    .execute();
  await db.schema.createIndex('monitor_runs_time').on('monitor_runs').column('slot_at').execute();
}
