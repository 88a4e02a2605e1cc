import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { migrateToLatest } from '../migrate.js';
import * as outboxClaim from '../outbox/claim.js';
import * as deliveries from '../outbox/deliveries.js';
import type { Database } from '../schema.js';
import { accountsOn, batchesOn, monitorsOn, runtimeOn, webhookSecretsOn } from '../kysely-ports.js';
import * as counts from '../stats.js';
import type { Store } from '../store.js';
import { abandonClaim } from '../tasks/abandon.js';
import { claimTasksSqlite, prepareClaim } from '../tasks/claim.js';
import { deleteExpired } from '../tasks/delete.js';
import { finishTaskSqlite, prepareFinish } from '../tasks/finish.js';
import { heartbeatSqlite, prepareHeartbeat } from '../tasks/heartbeat.js';
import { insertTasksSqlite, prepareInsert } from '../tasks/insert.js';
import { listTasks, sqliteTextMatch } from '../tasks/list.js';
import { getTaskSqlite, nextAvailableAt, pollTaskSqlite, prepareRead, taskArtifacts } from '../tasks/read.js';
import { reapExpiredLeases } from '../tasks/reap.js';
import { prepareRetry, retryTaskSqlite } from '../tasks/retry.js';
import { usage } from '../usage.js';
import { deadWorkersSqlite, registerWorkerSqlite, releaseHeld } from '../workers/liveness.js';
import { GroupCommit } from './group-commit.js';
import { SQLITE_MIGRATIONS } from './migration-list.js';

/** The hot-path statements of every operation, prepared once the schema exists. */
function prepareStatements(raw: BetterSqlite3.Database) {
  return {
    insert: prepareInsert(raw),
    read: prepareRead(raw),
    claim: prepareClaim(raw),
    heartbeat: prepareHeartbeat(raw),
    finish: prepareFinish(raw),
    retry: prepareRetry(raw),
    deliveries: deliveries.prepareDeliveries(raw),
    deliveryClaim: outboxClaim.prepareClaim(raw),
    stats: counts.prepareStats(raw),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

/**
 * The embedded store: one SQLite file in WAL mode, owned by one process. SQLite serialises writers, so a claim inside
 * a transaction is already exclusive; nothing more is needed to keep per-engine concurrency.
 *
 * Which form of each operation runs here: the calls made per request or per task (submit, reads by id, claim,
 * heartbeat, finish, retry, the webhook sender's claim and attempts, stats) run on statements prepared once, writes
 * through a group commit (one transaction per event-loop turn), reads answered together at the end of the turn. The
 * rest is the shared Kysely form. No pool slots: the process's pools count in memory. A worker is alive while it is
 * registered in this process.
 *
 * `cacheMb`: SQLite's page cache (its default is 2 MiB); polls over a large store miss it less the larger it is
 * (docs/benchmarks.md, growth).
 */
export function openSqliteStore(file: string, agingMs: number, cacheMb = 64): Store {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  raw.pragma(`cache_size = -${Math.round(cacheMb * 1024)}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  const group = new GroupCommit(raw, (fn) => db.connection().execute(async () => fn()));
  let statements: Statements | null = null;
  /** Statements exist once the schema does (after migrate). */
  const s = (): Statements => {
    if (!statements) throw new Error('store used before migrate()');
    return statements;
  };
  /** The workers registered in this process: the only live ones, since one process owns the file. */
  const alive = new Set<string>();
  return {
    kind: 'sqlite',
    db,
    async migrate() {
      await migrateToLatest(db, SQLITE_MIGRATIONS);
      statements = prepareStatements(raw);
    },
    async isReady() {
      if (!statements) return false;
      return sql`select 1`.execute(db).then(
        () => true,
        () => false,
      );
    },
    close: () => db.destroy(),
    tasks: {
      insert: (a) => insertTasksSqlite(group, s().insert, agingMs, a),
      get: (a) => getTaskSqlite(group, s().read, a),
      poll: (a) => pollTaskSqlite(group, s().read, a),
      list: (q) => listTasks(db, q, sqliteTextMatch),
      claim: (a) => claimTasksSqlite(group, s().claim, a),
      abandonClaim: (a) => abandonClaim(db, { ...a, slots: false }),
      heartbeat: (a) => heartbeatSqlite(group, s().heartbeat, a),
      finish: (a) => finishTaskSqlite(group, s().finish, a),
      retry: (a) => retryTaskSqlite(group, s().retry, a),
      reapExpired: (a) => reapExpiredLeases(db, a),
      deleteExpired: (a) => deleteExpired(db, a, 'sqlite'),
      nextAvailableAt: (taskType) => nextAvailableAt(db, taskType),
      artifacts: (a) => taskArtifacts(db, a),
    },
    figures: {
      stats: (a) => counts.statsSqlite(group, s().stats, a),
      queuedAndRunning: (a) => counts.queuedAndRunningSqlite(group, s().stats, a),
      // Its counts are one row each, kept by row triggers: nothing to fold.
      foldCounts: async () => 0,
    },
    outbox: {
      claimDue: (a) => outboxClaim.claimDueDeliveriesSqlite(group, s().deliveryClaim, a),
      startAttempt: (a) => deliveries.startDeliveryAttemptSqlite(group, s().deliveries, a),
      finishAttempt: (a) => deliveries.finishDeliveryAttemptSqlite(group, s().deliveries, a),
      requestRedelivery: (a) => deliveries.requestRedelivery(db, a),
      nextDueAt: () => deliveries.nextDeliveryAt(db),
      log: (taskId) => deliveries.deliveryLog(db, taskId),
    },
    batches: batchesOn(db, 'sqlite'),
    accounts: accountsOn(db),
    webhookSecrets: webhookSecretsOn(db),
    monitors: monitorsOn(db),
    usage: { byDay: (a) => usage(db, a) },
    runtime: runtimeOn(db),
    poolSlots: null,
    workers: {
      register: ({ now }) => registerWorkerSqlite(db, alive, now),
      releaseDead: (a) => releaseHeld(db, (trx) => deadWorkersSqlite(trx, alive), a),
      release: ({ id, ...a }) => releaseHeld(db, async () => [id], a),
      // One process holds the data directory (its lock): the worker is alone.
      count: async () => 1,
    },
  };
}
