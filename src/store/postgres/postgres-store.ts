import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from '../migrate.js';
import { claimDueDeliveriesPostgres } from '../outbox/claim.js';
import * as deliveries from '../outbox/deliveries.js';
import { postgresAcquirer, postgresReleaser, releaseSlotsOf } from '../pool-slots.js';
import type { Database } from '../schema.js';
import { accountsOn, batchesOn, monitorsOn, runtimeOn, webhookSecretsOn } from '../kysely-ports.js';
import * as counts from '../stats.js';
import type { Store } from '../store.js';
import { abandonClaim } from '../tasks/abandon.js';
import { claimTasksPostgres } from '../tasks/claim.js';
import { deleteExpired } from '../tasks/delete.js';
import { postgresFinisher } from '../tasks/finish.js';
import { heartbeatPostgres } from '../tasks/heartbeat.js';
import { insertTasksPostgres } from '../tasks/insert.js';
import { listTasks, postgresTextMatch } from '../tasks/list.js';
import { getTask, nextAvailableAt, pollTask, taskArtifacts } from '../tasks/read.js';
import { reapExpiredLeases } from '../tasks/reap.js';
import { retryTask } from '../tasks/retry.js';
import { usage } from '../usage.js';
import { deadWorkersPostgres, PostgresWorkerRegistration, liveWorkers, releaseHeld } from '../workers/liveness.js';
import { POSTGRES_MIGRATIONS } from './migration-list.js';
import { preparedArrayQuery, preparedQuery } from './prepared.js';

/**
 * The shared store for several API and worker processes, on one PostgreSQL schema (the connection's search_path).
 *
 * Which form of each operation runs here: the hot path is one named statement and one round trip per call: a claim
 * calls a stored function (the per-engine lock held only while it runs), a submit without idempotency keys is one
 * statement, a heartbeat extends all its leases in one statement, and the terminal writes (with their webhooks' outbox
 * rows), pool-slot leases and releases asked for during one turn of the event loop go to the server as one statement
 * each. The webhook claim skips rows other senders locked. Each worker process holds a liveness lock on a connection
 * of its own (store/workers/liveness.ts), and the pool slots of a dead one are freed with its tasks. The rest is the
 * shared Kysely form.
 */
export function openPostgresStore(connectionString: string, agingMs: number, poolMax: number): Store {
  const pool = new pg.Pool({ connectionString, max: poolMax });
  // A dropped connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  /** The hot path's statements, prepared once per connection of the pool Kysely uses. */
  const q = preparedQuery(pool);
  const qa = preparedArrayQuery(pool);
  let migrated = false;
  return {
    kind: 'postgres',
    db,
    async migrate() {
      // The migrator's tables live in this schema: Kysely looks across every schema otherwise.
      const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s;
      await migrateToLatest(db, POSTGRES_MIGRATIONS, schema);
      migrated = true;
    },
    async isReady() {
      if (!migrated) return false;
      return sql`select 1`.execute(db).then(
        () => true,
        () => false,
      );
    },
    close: () => db.destroy(),
    tasks: {
      insert: (a) => insertTasksPostgres(db, q, agingMs, a),
      get: (a) => getTask(db, a),
      poll: (a) => pollTask(db, a),
      list: (query) => listTasks(db, query, postgresTextMatch),
      claim: (a) => claimTasksPostgres(qa, agingMs, a),
      abandonClaim: (a) => abandonClaim(db, { ...a, slots: true }),
      heartbeat: (a) => heartbeatPostgres(q, a),
      finish: postgresFinisher(q),
      retry: (a) => retryTask(db, a),
      reapExpired: (a) => reapExpiredLeases(db, a),
      deleteExpired: (a) => deleteExpired(db, a, 'postgres'),
      nextAvailableAt: (taskType) => nextAvailableAt(db, taskType),
      artifacts: (a) => taskArtifacts(db, a),
    },
    figures: {
      stats: (a) => counts.stats(db, a),
      queuedAndRunning: (a) => counts.queuedAndRunning(db, a),
      foldCounts: () => counts.foldStatusCounts(db),
    },
    outbox: {
      claimDue: (a) => claimDueDeliveriesPostgres(db, a),
      startAttempt: (a) => deliveries.startDeliveryAttempt(db, a),
      finishAttempt: (a) => deliveries.finishDeliveryAttempt(db, a),
      requestRedelivery: (a) => deliveries.requestRedelivery(db, a),
      nextDueAt: () => deliveries.nextDeliveryAt(db),
      log: (taskId) => deliveries.deliveryLog(db, taskId),
    },
    batches: batchesOn(db, 'postgres'),
    accounts: accountsOn(db),
    webhookSecrets: webhookSecretsOn(db),
    monitors: monitorsOn(db),
    usage: { byDay: (a) => usage(db, a) },
    runtime: runtimeOn(db),
    poolSlots: { acquire: postgresAcquirer(q), release: postgresReleaser(q) },
    workers: {
      register: ({ now, onLost }) => PostgresWorkerRegistration.open(connectionString, now, onLost),
      releaseDead: (a) => releaseHeld(db, deadWorkersPostgres, a, releaseSlotsOf),
      release: ({ id, ...a }) => releaseHeld(db, async () => [id], a, releaseSlotsOf),
      count: () => liveWorkers(db),
    },
  };
}
