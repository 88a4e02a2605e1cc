import { sql, type Kysely } from 'kysely';

/** Completed runs whose counts are filled per statement of the backfill (each run's results are parsed once). */
const BACKFILL_PAGE = 50;

/**
 * A completed monitor run's saved results counted by status (`completed_tasks`, `failed_tasks`; null until the run
 * ends), so that `GET /v1/monitors/{id}/runs` shows a run's progress without reading its results: 400 saved answers
 * are about 360 KB of JSON, and a listing of 30 runs parsed 10 MB for 30 pairs of numbers (docs/benchmarks.md,
 * "Monitors at scale"). Runs completed before this migration are counted here, from their results.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('monitor_runs').addColumn('completed_tasks', 'integer').execute();
  await db.schema.alterTable('monitor_runs').addColumn('failed_tasks', 'integer').execute();
  await countSavedResults(db);
}

/** Counts the saved results of completed runs that have no counts yet, a page of runs at a time. */
export async function countSavedResults(db: Kysely<unknown>): Promise<void> {
  for (let after = ''; ; ) {
    const rows = (
      await sql<{ id: string; results: string | null }>`select id, results from monitor_runs
        where status = 'completed' and completed_tasks is null and id > ${after}
        order by id limit ${BACKFILL_PAGE}`.execute(db)
    ).rows;
    for (const r of rows) {
      const results = r.results === null ? [] : (JSON.parse(r.results) as Array<{ status?: unknown }>);
      const completed = results.filter((x) => x.status === 'COMPLETED').length;
      await sql`update monitor_runs set completed_tasks = ${completed}, failed_tasks = ${results.length - completed}
        where id = ${r.id}`.execute(db);
    }
    const last = rows.at(-1);
    if (!last || rows.length < BACKFILL_PAGE) break;
    after = last.id;
  }
}
