import { randomInt } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { killChild, spawnService, type ChildService } from '../helpers/child-service.js';
import { startReceiver } from '../helpers/receiver.js';
import { fastConfig, tempDir } from '../helpers/service.js';
import { freshPostgresUrl } from '../helpers/stores.js';
import { until } from '../helpers/wait.js';

const onPostgres = process.env.AEQ_TEST_STORE === 'postgres';
if (!onPostgres) {
  console.warn(
    '[group-commit kill] skipped: PostgreSQL only (AEQ_TEST_STORE=postgres, the postgres project); the group commit ' +
      'under test is the batched finish statement of store/tasks/finish.ts',
  );
}

const TOTAL = 200;
const ENGINE = 'ANSWER_ENGINE_A';
/** How long the armed trigger holds the finish statement inside PostgreSQL: the kill lands well inside it. */
const SLEEP_S = 8;
/** The advisory-lock namespace the trigger marks its statement's tasks with (one per run). */
const NS = randomInt(1, 2 ** 31 - 1);

/** Log lines with the message `msg` per task id, over the output of the given workers. */
function linesPerTask(workers: ChildService[], msg: string): Map<string, number> {
  const n = new Map<string, number>();
  for (const w of workers) {
    for (const line of w.output) {
      if (!line.includes(`"${msg}"`)) continue;
      try {
        const id = (JSON.parse(line) as { taskId?: string }).taskId;
        if (id) n.set(id, (n.get(id) ?? 0) + 1);
      } catch {
        // partial line
      }
    }
  }
  return n;
}

/**
 * The trigger that makes a group commit slow, in the test's own schema (nothing in src/ knows of it). After an insert
 * into webhook_deliveries (the outbox rows of the batched finish: `with v as (...), done as (update tasks ...), hooks
 * as (insert into webhook_deliveries ...) select id from done`) it marks each inserted task with a transaction-level
 * advisory lock (so the test can read which tasks the statement holds, from pg_locks), then, if the statement
 * finishes two tasks or more (a turn's group, not a lone finish) and the control row is armed, disarms it and sleeps.
 * Only the first such statement after arming sleeps: a concurrent one waits on the control row and finds it disarmed
 * once the first ends (or armed, and sleeps in turn, if the first rolled back).
 */
const TRIGGER_SQL = `
  create table gc_kill_control (armed boolean not null);
  insert into gc_kill_control values (false);
  create function gc_kill_slow() returns trigger language plpgsql as $$
  begin
    perform pg_try_advisory_xact_lock(${NS}, hashtext(task_id) & 2147483647) from gc_kill_inserted;
    if (select count(*) from gc_kill_inserted) >= 2 then
      update gc_kill_control set armed = false where armed;
      if found then perform pg_sleep(${SLEEP_S}); end if;
    end if;
    return null;
  end $$;
  create trigger gc_kill_slow after insert on webhook_deliveries referencing new table as gc_kill_inserted
    for each statement execute function gc_kill_slow();`;

/**
 * A worker killed (kill -9) in the middle of a group commit loses no task and completes none twice. One API process and
 * one worker process on a fresh schema work through 200 sandbox tasks with webhooks; under load the trigger above holds
 * one of the worker's batched finish statements (its tasks updated to COMPLETED and their outbox rows inserted, not yet
 * committed) inside PostgreSQL, and the worker is killed with SIGKILL while the statement sleeps. A second worker is
 * started at once, so its liveness sweep hands back the dead worker's tasks while that statement may still hold their
 * rows. PostgreSQL only notices a dead client when it writes to its socket, so the statement commits after the kill
 * (seen in every run); the second case runs the workers with client_connection_check_interval, so the server ends the
 * statement while it sleeps and rolls it back (seen in every run), and its tasks are handed back and run again. The
 * test passes either way and logs which occurred. Either way: the statement's tasks are all COMPLETED with their outbox
 * rows or none are (atomic); no task is lost or completed twice; every webhook is acknowledged, and a duplicate only
 * for a delivery the killed worker had in flight.
 */
describe.skipIf(!onPostgres)('kill -9 of a worker in the middle of its group commit (PostgreSQL)', () => {
  const children: ChildService[] = [];
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of children.splice(0)) await killChild(c);
    for (const c of closers.splice(0).reverse()) await c();
  });

  const cases = [
    { probe: false, when: 'as configured (the server sees the dead client only when it answers)' },
    { probe: true, when: 'with client_connection_check_interval on the workers (the server sees it while it sleeps)' },
  ];
  for (const { probe, when } of cases)
    it(`loses no task, completes none twice and loses no webhook, ${when}`, { timeout: 240_000 }, async () => {
      const tag = `[group-commit kill${probe ? ', probed' : ''}]`;
      const hooks = await startReceiver();
      closers.push(() => hooks.close());
      const { url, drop } = await freshPostgresUrl();
      closers.push(drop);
      // The probe makes the server check the workers' sockets during a statement: the held one is then ended (and
      // rolled back) soon after the kill, the other case of the test.
      const probed = new URL(url);
      probed.searchParams.set(
        'options',
        `${probed.searchParams.get('options')} -c client_connection_check_interval=100`,
      );
      const env = {
        DATABASE_URL: url,
        AEQ_CONFIG: fastConfig(tempDir(), {
          engines: { [ENGINE]: { concurrency: 32, maxAttempts: 5 } },
          // The default lease (30 s): the killed worker's tasks come back through its liveness signal, not the lease.
          scheduler: { livenessMs: 500 },
        }),
        AEQ_ENGINE_TIMEOUT_MS: '10000',
      };
      const start = async (role: 'api' | 'worker') => {
        const dbUrl = probe && role === 'worker' ? probed.toString() : url;
        const c = await spawnService({ ...env, DATABASE_URL: dbUrl, AEQ_ROLE: role }, 90_000);
        children.push(c);
        return c;
      };
      // The API process migrates the schema; the trigger goes on its tables before any worker runs.
      const api = await start('api');
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      closers.push(() => db.end());
      await db.query(TRIGGER_SQL);
      // One worker only until the kill: the statement held in the trigger is surely its own.
      const workerA = await start('worker');

      // One delay for all: the tasks of one claim answer together, so many turns finish several tasks at once.
      const items = Array.from({ length: TOTAL }, (_, i) => ({
        taskType: ENGINE,
        payload: { prompt: `group commit kill ${i} sandbox:delay=300` },
        webhook: { url: `${hooks.url}/t` },
      }));
      const submitted = await api.call('POST', '/v1/async/task/batch', items);
      expect(submitted.status).toBe(200);
      expect(submitted.body.summary.succeeded).toBe(TOTAL);
      const ids: string[] = submitted.body.results.map((x: { task: { id: string } }) => x.task.id);

      const count = async (where: string) =>
        (await db.query<{ n: number }>(`select count(*)::int as n from tasks where ${where}`)).rows[0]?.n ?? 0;
      // Under load: some tasks done, more in flight, most still queued. Then the next group commit is held.
      await until(
        '30 tasks completed',
        () => count(`status = 'COMPLETED'`),
        (n) => n >= 30,
        90_000,
      );
      await db.query('update gc_kill_control set armed = true');
      const sleeping = `select pid from pg_stat_activity
      where datname = current_database() and wait_event = 'PgSleep' and ltrim(query, E' \\n\\t') like 'with v as%'
        and exists (select 1 from pg_locks l where l.pid = pg_stat_activity.pid and l.locktype = 'advisory'
          and l.classid = ${NS}::bigint::oid and l.objsubid = 2)`;
      const [held] = (
        await until(
          'a finish statement of 2 tasks or more sleeping in the trigger',
          async () => (await db.query<{ pid: number }>(sleeping)).rows,
          (rows) => rows.length > 0,
          60_000,
          20,
        )
      ).map((r) => r.pid);
      // The tasks of that statement: the advisory locks its backend took for each outbox row it inserted.
      const inStatement = (
        await db.query<{ id: string }>(
          `select t.id from tasks t join pg_locks l on l.locktype = 'advisory' and l.objsubid = 2
           and l.classid = ${NS}::bigint::oid and l.objid = (hashtext(t.id) & 2147483647)::bigint::oid
         where l.pid = $1`,
          [held],
        )
      ).rows.map((r) => r.id);
      const killedId = (await db.query<{ id: string }>('select id from workers')).rows.map((r) => r.id);
      expect(killedId).toHaveLength(1);

      workerA.proc.kill('SIGKILL');
      await workerA.exited;
      // The kill landed in the middle of the group commit: its backend is still in the trigger's sleep.
      // (With the probe the server may already have ended it, having seen the socket closed.)
      const stillSleeping = (await db.query(`${sleeping} and pid = $1`, [held])).rowCount === 1;
      if (!probe) expect(stillSleeping).toBe(true);
      // Deliveries the killed worker had claimed and not recorded: the only ones allowed to arrive twice.
      const inFlight = new Set(
        (
          await db.query<{ task_id: string }>(
            `select task_id from webhook_deliveries where status = 'SENDING' and holder = $1`,
            killedId,
          )
        ).rows.map((r) => r.task_id),
      );
      // Tasks the killed worker held at the kill (its other finish statements' included, not yet committed): reported.
      const heldAtKill = new Set(
        (
          await db.query<{ id: string }>(
            `select id from tasks where status = 'PROCESSING' and worker_id = $1`,
            killedId,
          )
        ).rows.map((r) => r.id),
      );
      const workerB = await start('worker');

      // The statement ends on the server: committed after its client died, or rolled back.
      const waiters: number[] = [];
      await until(
        'the killed worker statement ended on the server',
        async () => {
          const r = await db.query<{ pid: number; waiting: boolean }>(
            `select pid, wait_event_type = 'Lock' as waiting from pg_stat_activity where datname = current_database()`,
          );
          for (const x of r.rows) if (x.waiting && !waiters.includes(x.pid)) waiters.push(x.pid);
          return r.rows.some((x) => x.pid === held);
        },
        (alive) => !alive,
        90_000,
        50,
      );
      const after = (
        await db.query<{ id: string; status: string; hook: boolean; attempts: number }>(
          `select t.id, t.status, t.attempts, exists (select 1 from webhook_deliveries d where d.task_id = t.id) as hook
         from tasks t where t.id = any($1)`,
          [inStatement],
        )
      ).rows;
      const committed = after.filter((r) => r.status === 'COMPLETED' && r.hook).length;
      const outcome = committed === inStatement.length ? 'committed after the kill' : 'rolled back';
      console.log(
        `${tag} worker killed while its finish statement of ${inStatement.length} task(s) slept in PostgreSQL ` +
          `(backend ${held}, ${stillSleeping ? 'still' : 'no longer'} sleeping just after the kill); the statement ` +
          `${outcome}; ${waiters.length} other backend(s) waited on locks meanwhile; ${inFlight.size} ` +
          `delivery(ies) in flight under the killed worker`,
      );
      expect(inStatement.length).toBeGreaterThanOrEqual(2);
      // Atomic: all of the statement's tasks are COMPLETED with their outbox row, or none is (and none has a row).
      if (outcome === 'rolled back') expect(after.filter((r) => r.status === 'COMPLETED' || r.hook)).toEqual([]);

      // Everything settles: every task terminal and every delivery made.
      await until(
        'every task terminal and every delivery made',
        () =>
          db
            .query<{ done: number; delivered: number }>(
              `select (select count(*) from tasks where status in ('COMPLETED', 'FAILED'))::int as done,
               (select count(*) from webhook_deliveries where status = 'DELIVERED')::int as delivered`,
            )
            .then((r) => r.rows[0]),
        (x) => x?.done === TOTAL && x.delivered === TOTAL,
        150_000,
        250,
      );
      await hooks.waitUntil(
        (all) => new Set(all.filter((r) => r.acknowledged).map((r) => r.body?.task?.id)).size >= TOTAL,
        30_000,
        'every webhook acknowledged',
      );

      // 0 tasks lost: every accepted task ends COMPLETED, with exactly one outbox row.
      const statuses = (await db.query('select status, count(*)::int as n from tasks group by status')).rows;
      expect(statuses).toEqual([{ status: 'COMPLETED', n: TOTAL }]);
      const rows = (
        await db.query<{ task_id: string; n: number }>(
          'select task_id, count(*)::int as n from webhook_deliveries group by task_id',
        )
      ).rows;
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      expect(new Set(rows.map((r) => r.task_id))).toEqual(new Set(ids));

      // 0 completed twice: no task id finished twice across the killed and the new worker; and no finish of the new
      // worker was refused (a task the killed worker's statement had completed, run again, would be fenced: "lease
      // lost", or refused by the outbox's primary key: "task execution crashed").
      const counts = linesPerTask([workerA, workerB], 'task finished');
      expect(ids.filter((id) => (counts.get(id) ?? 0) > 1)).toEqual([]);
      const finishedByB = linesPerTask([workerB], 'task finished');
      expect(workerB.output.filter((l) => /lease lost|task execution crashed/.test(l))).toEqual([]);
      if (outcome === 'committed after the kill') {
        // Completed by the dead worker's statement (which never got its answer, so logged nothing): the liveness
        // release's fenced requeue changed nothing, so no worker claimed (attempts unchanged) or finished them again.
        expect(inStatement.filter((id) => counts.has(id))).toEqual([]);
        const final = (
          await db.query<{ id: string; attempts: number }>('select id, attempts from tasks where id = any($1)', [
            inStatement,
          ])
        ).rows;
        const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
        expect(final.sort(byId)).toEqual(after.map((r) => ({ id: r.id, attempts: r.attempts })).sort(byId));
      } else {
        // Rolled back: handed back and finished by the new worker, once.
        expect(inStatement.filter((id) => finishedByB.get(id) !== 1)).toEqual([]);
      }
      // Tasks with no "task finished" line at all were finished by the killed worker, unlogged: its other finish
      // statements, queued behind the held one, commit after the kill too, and its last log lines (written
      // asynchronously) may be lost with it. Reported, not asserted: the checks above already hold for them.
      const inStatementSet = new Set(inStatement);
      const unlogged = ids.filter((id) => !inStatementSet.has(id) && !counts.has(id));
      const unloggedHeld = unlogged.filter((id) => heldAtKill.has(id)).length;

      // 0 webhooks lost: every task's webhook acknowledged; a duplicate only for a delivery in flight at the kill.
      const acked = new Map<string, number>();
      for (const r of hooks.acknowledged()) {
        const id = (r.body as { task: { id: string } }).task.id;
        acked.set(id, (acked.get(id) ?? 0) + 1);
      }
      expect(ids.filter((id) => !acked.has(id))).toEqual([]);
      const duplicates = [...acked].filter(([, n]) => n > 1).map(([id]) => id);
      console.log(
        `${tag} ${duplicates.length} duplicate webhook(s); ${unlogged.length} other task(s) finished ` +
          `unlogged by the killed worker (${unloggedHeld} of them still PROCESSING under it at the kill)`,
      );
      expect(duplicates.filter((id) => !inFlight.has(id))).toEqual([]);
    });
});
