import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { ClaimedTask, NewTask, PolledTask, TaskRecord } from '../../domain/task.js';
import { taskIdKey } from '../../domain/task-id.js';
import { SQLITE_DIALECT } from '../dialect.js';
import type { Database, TasksTable } from '../schema.js';
import { KyselyStore } from '../kysely-store.js';
import * as deliveries from '../outbox/deliveries.js';
import { claimedFromRow, polledFromValues, taskFromRow, type PollValues } from '../rows.js';
import * as counts from '../stats.js';
import type { DeliveryOutcome, DueDelivery, InsertOutcome, Stats, TerminalWrite } from '../store.js';
import { GroupCommit } from './group-commit.js';
import { prepareStatements, type Statements } from './statements.js';

/**
 * The embedded store: one SQLite file in WAL mode. SQLite serialises writers, so a claim inside a
 * transaction is already exclusive; nothing more is needed to keep per-engine concurrency.
 *
 * The hot paths (submit, poll, claim, finish, webhook delivery) bypass Kysely's per-call query
 * compilation and statement preparation: they run statements prepared once, and their writes go
 * through a group commit (one transaction per event-loop turn). The rest is the shared Kysely code.
 */
export class SqliteStore extends KyselyStore {
  private statements: Statements | null = null;
  private readonly group: GroupCommit;

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

  override insertTasks(tasks: NewTask[], notBefore = 0): Promise<InsertOutcome[]> {
    if (tasks.length === 0) return Promise.resolve([]);
    const rows = tasks.map((t) => this.toRow(t));
    return this.group.write(() => {
      const out = rows.map((row) => this.insertOne(row, notBefore));
      // One count update per engine for the whole insert (see migrations/005-status-counts.ts).
      const perType = new Map<string, number>();
      for (const o of out) if (o.ok) perType.set(o.task.taskType, (perType.get(o.task.taskType) ?? 0) + 1);
      for (const [type, n] of perType) this.s.countInserted.run(type, n);
      return out;
    });
  }

  private insertOne(row: TasksTable, notBefore: number): InsertOutcome {
    const s = this.s;
    // ON CONFLICT DO NOTHING: of two submits with one idempotency key, exactly one row wins.
    if (this.insertRow(row)) return { ok: true, task: taskFromRow(row) };
    const existing = s.taskByKey.get(row.idempotency_key) as { id: string; created_at: number } | undefined;
    if (existing && existing.created_at < notBefore) {
      // The holder of the key has expired but is not swept yet: the key is free again.
      s.deleteAttempts.run(existing.id);
      s.deleteDelivery.run(existing.id);
      s.deleteTask.run(existing.id);
      if (this.insertRow(row)) return { ok: true, task: taskFromRow(row) };
    }
    return { ok: false, reason: 'DUPLICATE_KEY', existingId: existing?.id ?? '' };
  }

  /** Inserts under the id's own key as rowid; if another row holds that rowid, under one SQLite picks. False: the idempotency key is taken. */
  private insertRow(row: TasksTable): boolean {
    try {
      return this.s.insertTask.run(taskIdKey(row.id), row).changes === 1;
    } catch (e) {
      if (!(e instanceof BetterSqlite3.SqliteError) || e.code !== 'SQLITE_CONSTRAINT_ROWID') throw e;
      return this.s.insertTask.run(null, row).changes === 1;
    }
  }

  override getTask(id: string, notBefore: number): Promise<TaskRecord | undefined> {
    return this.group.read(() => {
      const row = this.byKeyThenId<TasksTable>(this.s.getTaskByKey, this.s.getTask, id, notBefore);
      return row ? taskFromRow(row) : undefined;
    });
  }

  override pollTask(id: string, notBefore: number): Promise<PolledTask | undefined> {
    return this.group.read(() => {
      const values = this.byKeyThenId<PollValues>(this.s.pollTaskByKey, this.s.pollTask, id, notBefore);
      return values ? polledFromValues(values) : undefined;
    });
  }

  /** A task's row by its rowid (where the id's key is the rowid, as for every task inserted since keys became rowids), else by the id index. */
  private byKeyThenId<Row>(byKey: BetterSqlite3.Statement, byId: BetterSqlite3.Statement, id: string, notBefore: number): Row | undefined {
    const key = taskIdKey(id);
    const row = key === null ? undefined : (byKey.get(key, id, notBefore) as Row | undefined);
    return row ?? (byId.get(id, notBefore) as Row | undefined);
  }

  override claimTasks(a: { taskType: string; limit: number; concurrency: number; workerId: string; now: number; leaseMs: number }): Promise<ClaimedTask[]> {
    return this.group.writeNowIfIdle(() => {
      const running = (this.s.countProcessing.get(a.taskType) as { n: number }).n;
      const room = Math.min(a.limit, a.concurrency - running);
      if (room <= 0) return [];
      const rows = this.s.claim.all({
        token: randomUUID(),
        expires: a.now + a.leaseMs,
        worker: a.workerId,
        now: a.now,
        type: a.taskType,
        room,
      }) as TasksTable[];
      return rows.sort((x, y) => x.sort_key - y.sort_key).map(claimedFromRow);
    });
  }

  override heartbeat(leases: Array<{ id: string; leaseToken: string }>, leaseExpiresAt: number): Promise<number> {
    if (leases.length === 0) return Promise.resolve(0);
    return this.group.write(() => leases.reduce((n, l) => n + this.s.heartbeat.run(leaseExpiresAt, l.id, l.leaseToken).changes, 0));
  }

  override finishTask(id: string, leaseToken: string, w: TerminalWrite, now: number): Promise<boolean> {
    const result = w.result === undefined ? null : JSON.stringify(w.result);
    const payload = w.webhook ? JSON.stringify(w.webhook.payload) : null;
    return this.group.write(() => {
      const changed = this.s.finishTask.run({
        status: w.status,
        result,
        error: w.error,
        toCharge: w.creditsToCharge,
        charged: w.creditsCharged,
        now,
        id,
        token: leaseToken,
      }).changes;
      if (changed !== 1) return false;
      if (w.webhook && payload !== null) this.s.insertDelivery.run(id, w.webhook.url, payload, now, now, now);
      return true;
    });
  }

  override retryTask(id: string, leaseToken: string, lastError: string, availableAt: number, now: number): Promise<boolean> {
    return this.group.write(() => this.s.retryTask.run(lastError, availableAt, now, id, leaseToken).changes === 1);
  }

  override stats(notBefore: number): Promise<Stats> {
    return counts.statsSqlite(this.group, this.s.stats, notBefore);
  }
  override queuedAndRunning(notBefore: number): Promise<Record<string, { queued: number; processing: number }>> {
    return counts.queuedAndRunningSqlite(this.group, this.s.stats, notBefore);
  }

  override claimDueDeliveries(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    return deliveries.claimDueDeliveriesSqlite(this.group, this.s.deliveries, now, limit, leaseMs);
  }
  override startDeliveryAttempt(taskId: string, leaseToken: string, attempt: number, now: number): Promise<boolean> {
    return deliveries.startDeliveryAttemptSqlite(this.group, this.s.deliveries, taskId, leaseToken, attempt, now);
  }
  override finishDeliveryAttempt(taskId: string, leaseToken: string, attempt: number, o: DeliveryOutcome, now: number): Promise<void> {
    return deliveries.finishDeliveryAttemptSqlite(this.group, this.s.deliveries, taskId, leaseToken, attempt, o, now);
  }
}

/** `cacheMb`: SQLite's page cache (its default is 2 MiB); polls over a large store miss it less the larger it is (docs/benchmarks.md, growth). */
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
