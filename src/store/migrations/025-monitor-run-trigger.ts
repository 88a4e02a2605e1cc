import type { Kysely } from 'kysely';

/**
 * What started a monitor run (`run_trigger`): its schedule, or a request to run it now (`POST
 * /v1/monitors/{id}/runs`). A reader of the runs tells a run started by hand from a scheduled one, whose `slotAt`
 * is a slot of the schedule. Runs made before are scheduled ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('monitor_runs')
    .addColumn('run_trigger', 'text', (c) => c.notNull().defaultTo('schedule'))
    .execute();
}
