import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { NewBatch } from '../../domain/batch.js';
import type { ClaimedTask, NewTask, PolledTask, TaskRecord } from '../../domain/task.js';
import { SQLITE_DIALECT } from '../dialect.js';
import { KyselyStore } from '../kysely-store.js';
import * as outboxClaim from '../outbox/claim.js';
import * as deliveries from '../outbox/deliveries.js';
import type { Database } from '../schema.js';
import * as counts from '../stats.js';
import type {
  DeliveryOutcome,
  DeliveryShare,
  DueDelivery,
  InsertOutcome,
  Stats,
  Store,
  TerminalWrite,
  WorkerRegistration,
} from '../store.js';
import { claimTasksSqlite, prepareClaim } from '../tasks/claim.js';
import { finishTaskSqlite, prepareFinish } from '../tasks/finish.js';
import { heartbeatSqlite, prepareHeartbeat } from '../tasks/heartbeat.js';
import { insertTasksSqlite, prepareInsert } from '../tasks/insert.js';
import { getTaskSqlite, pollTaskSqlite, prepareRead } from '../tasks/read.js';
import { prepareRetry, retryTaskSqlite } from '../tasks/retry.js';
import { deadWorkersSqlite, registerWorkerSqlite } from '../workers/liveness.js';
import { GroupCommit } from './group-commit.js';
import type { TaskFailure } from '../../domain/task-failure.js';

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
 * The embedded store: one SQLite file in WAL mode. SQLite serialises writers, so a claim inside a
 * transaction is already exclusive; nothing more is needed to keep per-engine concurrency.
 *
 * The calls made per request or per task (submit, poll, claim, heartbeat, finish, retry, webhook
 * delivery, stats) run the SQLite form of their operation: statements prepared once, writes through
 * a group commit (one transaction per event-loop turn), reads answered together at the end of the
 * turn. The rest (reaper, retention sweep, pool leases, runtime state) is the shared Kysely form.
 */
export class SqliteStore extends KyselyStore {
  private statements: Statements | null = null;
  private readonly group: GroupCommit;
  /** The workers registered in this process: the only live ones, since one process owns the file. */
  private readonly aliveWorkers = new Set<string>();

  constructor(
    db: Kysely<Database>,
    private readonly raw: BetterSqlite3.Database,
    agingMs: number,
  ) {
    super(db, SQLITE_DIALECT, agingMs);
    this.group = new GroupCommit(raw, (fn) => db.connection().execute(async () => fn()));
  }

  override async migrate(): Promise<void> {
    await super.migrate();
    this.statements = prepareStatements(this.raw);
  }

  /** Statements exist once the schema does (after migrate). */
  private get s(): Statements {
    if (!this.statements) throw new Error('store used before migrate()');
    return this.statements;
  }

  override insertTasks(tasks: NewTask[], notBefore = 0, batch?: NewBatch): Promise<InsertOutcome[]> {
    return insertTasksSqlite(this.group, this.s.insert, this.agingMs, tasks, notBefore, batch);
  }
  override getTask(id: string, notBefore: number): Promise<TaskRecord | undefined> {
    return getTaskSqlite(this.group, this.s.read, id, notBefore);
  }
  override pollTask(id: string, notBefore: number): Promise<PolledTask | undefined> {
    return pollTaskSqlite(this.group, this.s.read, id, notBefore);
  }
  override registerWorker(now: number): Promise<WorkerRegistration> {
    return registerWorkerSqlite(this.db, this.aliveWorkers, now);
  }
  protected override deadWorkers(trx: Kysely<Database>): Promise<string[]> {
    return deadWorkersSqlite(trx, this.aliveWorkers);
  }
  override claimTasks(a: Parameters<Store['claimTasks']>[0]): Promise<ClaimedTask[]> {
    return claimTasksSqlite(this.group, this.s.claim, a);
  }
  override heartbeat(leases: Array<{ id: string; leaseToken: string }>, leaseExpiresAt: number): Promise<number> {
    return heartbeatSqlite(this.group, this.s.heartbeat, leases, leaseExpiresAt);
  }
  override finishTask(id: string, leaseToken: string, w: TerminalWrite, now: number): Promise<boolean> {
    return finishTaskSqlite(this.group, this.s.finish, id, leaseToken, w, now);
  }
  override retryTask(
    id: string,
    leaseToken: string,
    lastError: string,
    availableAt: number,
    now: number,
    failure: TaskFailure | null = null,
  ): Promise<boolean> {
    return retryTaskSqlite(this.group, this.s.retry, id, leaseToken, lastError, availableAt, now, failure);
  }
  override stats(notBefore: number, accountId?: string): Promise<Stats> {
    return counts.statsSqlite(this.group, this.s.stats, notBefore, accountId);
  }
  override queuedAndRunning(notBefore: number): Promise<Record<string, { queued: number; processing: number }>> {
    return counts.queuedAndRunningSqlite(this.group, this.s.stats, notBefore);
  }

  override claimDueDeliveries(
    now: number,
    limit: number,
    leaseMs: number,
    holder: string | null = null,
    share?: DeliveryShare,
  ): Promise<DueDelivery[]> {
    return outboxClaim.claimDueDeliveriesSqlite(this.group, this.s.deliveryClaim, now, limit, leaseMs, holder, share);
  }
  override startDeliveryAttempt(
    taskId: string,
    leaseToken: string,
    attempt: number,
    now: number,
    delivery = 0,
  ): Promise<boolean> {
    return deliveries.startDeliveryAttemptSqlite(
      this.group,
      this.s.deliveries,
      taskId,
      leaseToken,
      attempt,
      now,
      delivery,
    );
  }
  override finishDeliveryAttempt(
    taskId: string,
    leaseToken: string,
    attempt: number,
    o: DeliveryOutcome,
    now: number,
  ): Promise<void> {
    return deliveries.finishDeliveryAttemptSqlite(this.group, this.s.deliveries, taskId, leaseToken, attempt, o, now);
  }
}

/**
 * `cacheMb`: SQLite's page cache (its default is 2 MiB); polls over a large store miss it less the larger it is
 * (docs/benchmarks.md, growth).
 */
export function openSqliteStore(file: string, agingMs: number, cacheMb = 64): SqliteStore {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  raw.pragma(`cache_size = -${Math.round(cacheMb * 1024)}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  return new SqliteStore(db, raw, agingMs);
}
