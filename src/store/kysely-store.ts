import { sql, type Kysely } from 'kysely';
import type { Account, ApiKeyRecord, NewApiKey, StoredKey } from '../domain/account.js';
import type { BatchItem, BatchRecord, NewBatch } from '../domain/batch.js';
import type { MonitorRecord, MonitorRunRecord, MonitorRunStatus } from '../domain/monitor.js';
import type { ClaimedTask, NewTask, PolledTask, TaskRecord } from '../domain/task.js';
import * as accounts from './accounts.js';
import * as batches from './batches.js';
import * as monitors from './monitors.js';
import { usage as usageOf, type UsageRow } from './usage.js';
import * as webhookSecrets from './webhook-secrets.js';
import type { StoreDialect } from './dialect.js';
import { migrateToLatest } from './migrate.js';
import * as outboxClaim from './outbox/claim.js';
import * as deliveries from './outbox/deliveries.js';
import * as poolLeases from './pool-leases.js';
import * as runtimeState from './runtime-state.js';
import type { Database } from './schema.js';
import * as counts from './stats.js';
import type {
  DeliveryLogRow,
  DeliveryOutcome,
  DeliveryShare,
  RedeliveryOutcome,
  DueDelivery,
  InsertOutcome,
  ReapResult,
  Stats,
  Store,
  ListedTaskRow,
  TaskListQuery,
  TerminalWrite,
  WebhookOutbox,
  WorkerRegistration,
  WorkersReleased,
} from './store.js';
import { deleteExpired } from './tasks/delete.js';
import { insertTasks } from './tasks/insert.js';
import { listTasks } from './tasks/list.js';
import { getTask, nextAvailableAt, pollTask } from './tasks/read.js';
import { reapExpiredLeases } from './tasks/reap.js';
import { retryTask } from './tasks/retry.js';
import { releaseWorkers } from './workers/liveness.js';
import type { TaskFailure } from '../domain/task-failure.js';

/**
 * A store on a Kysely connection: each call runs the shared Kysely form of its operation (one file
 * per operation under src/store), with the dialect's capabilities. The embedded and PostgreSQL
 * stores extend it and wire their own form of an operation where they have one.
 */
export abstract class KyselyStore implements Store {
  readonly kind: 'sqlite' | 'postgres';
  private migrated = false;

  constructor(
    readonly db: Kysely<Database>,
    protected readonly dialect: StoreDialect,
    protected readonly agingMs: number,
  ) {
    this.kind = dialect.kind;
  }

  async migrate(): Promise<void> {
    await migrateToLatest(this.db, this.dialect);
    this.migrated = true;
  }

  async isReady(): Promise<boolean> {
    if (!this.migrated) return false;
    try {
      await sql`select 1`.execute(this.db);
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.db.destroy();
  }

  insertTasks(tasks: NewTask[], notBefore = 0, batch?: NewBatch): Promise<InsertOutcome[]> {
    return insertTasks(this.db, this.agingMs, tasks, notBefore, batch);
  }
  getBatch(id: string, accountId: string, notBefore: number): Promise<BatchRecord | undefined> {
    return batches.getBatch(this.db, id, accountId, notBefore);
  }
  listBatches(
    accountId: string,
    notBefore: number,
    beforeId: string | null,
    limit: number,
  ): Promise<{ batches: BatchRecord[]; more: boolean }> {
    return batches.listBatches(this.db, accountId, notBefore, beforeId, limit);
  }
  batchItems(batch: BatchRecord, after: number, limit: number, withPayload = false): Promise<BatchItem[]> {
    return batches.batchItems(this.db, batch, after, limit, withPayload);
  }
  completeBatches(
    now: number,
    notBefore: number,
    limit: number,
    webhookOf: (b: BatchRecord) => WebhookOutbox | null,
  ): Promise<BatchRecord[]> {
    return batches.completeBatches(this.db, now, notBefore, limit, webhookOf);
  }
  deleteExpiredBatches(before: number, limit: number): Promise<number> {
    return this.db.transaction().execute((trx) => batches.deleteExpiredBatches(trx, before, limit));
  }
  getTask(id: string, notBefore: number): Promise<TaskRecord | undefined> {
    return getTask(this.db, id, notBefore);
  }
  pollTask(id: string, notBefore: number): Promise<PolledTask | undefined> {
    return pollTask(this.db, id, notBefore);
  }
  listTasks(q: TaskListQuery): Promise<ListedTaskRow[]> {
    return listTasks(this.db, this.dialect, q);
  }
  /** The hot path of a claimed task: each store has its own form (no shared one would be used). */
  abstract claimTasks(a: Parameters<Store['claimTasks']>[0]): Promise<ClaimedTask[]>;
  abstract heartbeat(leases: Array<{ id: string; leaseToken: string }>, leaseExpiresAt: number): Promise<number>;
  abstract finishTask(id: string, leaseToken: string, write: TerminalWrite, now: number): Promise<boolean>;
  retryTask(
    id: string,
    leaseToken: string,
    lastError: string,
    availableAt: number,
    now: number,
    failure: TaskFailure | null = null,
  ): Promise<boolean> {
    return retryTask(this.db, id, leaseToken, lastError, availableAt, now, failure);
  }
  reapExpiredLeases(now: number, failedWrite: (task: TaskRecord) => TerminalWrite): Promise<ReapResult> {
    return reapExpiredLeases(this.db, now, failedWrite);
  }
  abstract registerWorker(now: number, onLost: (e: unknown) => void): Promise<WorkerRegistration>;
  /** The registered workers (or, on SQLite, holders) found dead, in the release's transaction. */
  protected abstract deadWorkers(trx: Kysely<Database>): Promise<string[]>;
  /** What else a dead worker may hold in this store, released with its tasks (nothing, unless a store says). */
  protected releaseMoreOf(_trx: Kysely<Database>, _ids: readonly string[]): Promise<void> {
    return Promise.resolve();
  }
  releaseDeadWorkers(now: number, failedWrite: (task: TaskRecord) => TerminalWrite): Promise<WorkersReleased> {
    return this.releaseHeld((trx) => this.deadWorkers(trx), now, failedWrite);
  }
  releaseWorker(id: string, now: number, failedWrite: (task: TaskRecord) => TerminalWrite): Promise<WorkersReleased> {
    return this.releaseHeld(async () => [id], now, failedWrite);
  }
  /** In one transaction: the workers `which` names, then everything they held, handed back. */
  private releaseHeld(
    which: (trx: Kysely<Database>) => Promise<string[]>,
    now: number,
    failedWrite: (task: TaskRecord) => TerminalWrite,
  ): Promise<WorkersReleased> {
    return this.db.transaction().execute(async (trx) => {
      const ids = await which(trx);
      await this.releaseMoreOf(trx, ids);
      return releaseWorkers(trx, ids, now, failedWrite);
    });
  }
  deleteExpired(before: number, limit: number): Promise<number> {
    return deleteExpired(this.db, before, limit);
  }
  nextAvailableAt(taskType: string): Promise<number | null> {
    return nextAvailableAt(this.db, taskType);
  }
  stats(notBefore: number, accountId?: string): Promise<Stats> {
    return counts.stats(this.db, notBefore, accountId);
  }
  queuedAndRunning(notBefore: number): Promise<Record<string, { queued: number; processing: number }>> {
    return counts.queuedAndRunning(this.db, notBefore);
  }

  claimDueDeliveries(
    now: number,
    limit: number,
    leaseMs: number,
    holder: string | null = null,
    share?: DeliveryShare,
  ): Promise<DueDelivery[]> {
    return outboxClaim.claimDueDeliveries(this.db, this.dialect, now, limit, leaseMs, holder, share);
  }
  startDeliveryAttempt(
    taskId: string,
    leaseToken: string,
    attempt: number,
    now: number,
    delivery = 0,
  ): Promise<boolean> {
    return deliveries.startDeliveryAttempt(this.db, taskId, leaseToken, attempt, now, delivery);
  }

  requestRedelivery(taskId: string, now: number): Promise<RedeliveryOutcome> {
    return deliveries.requestRedelivery(this.db, taskId, now);
  }
  finishDeliveryAttempt(
    taskId: string,
    leaseToken: string,
    attempt: number,
    outcome: DeliveryOutcome,
    now: number,
  ): Promise<void> {
    return deliveries.finishDeliveryAttempt(this.db, taskId, leaseToken, attempt, outcome, now);
  }
  deliveryLog(taskId: string): Promise<DeliveryLogRow | null> {
    return deliveries.deliveryLog(this.db, taskId);
  }

  nextDeliveryAt(): Promise<number | null> {
    return deliveries.nextDeliveryAt(this.db);
  }

  acquirePoolLease(resourceId: string, capacity: number, now: number, expiresAt: number): Promise<string | null> {
    return poolLeases.acquirePoolLease(this.db, this.dialect, resourceId, capacity, now, expiresAt);
  }
  releasePoolLease(token: string): Promise<void> {
    return poolLeases.releasePoolLease(this.db, token);
  }

  putRuntimeChange(key: string, state: string, now: number): Promise<void> {
    return runtimeState.putRuntimeChange(this.db, key, state, now);
  }
  runtimeChanges(): Promise<Array<{ key: string; state: string; updatedAt: number }>> {
    return runtimeState.runtimeChanges(this.db);
  }
  createAccount(a: Account): Promise<Account | undefined> {
    return accounts.createAccount(this.db, a);
  }
  accountByName(name: string): Promise<Account | undefined> {
    return accounts.accountByName(this.db, name);
  }
  listAccounts(): Promise<Account[]> {
    return accounts.listAccounts(this.db);
  }
  insertKey(k: NewApiKey): Promise<void> {
    return accounts.insertKey(this.db, k);
  }
  listKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    return accounts.listKeys(this.db, accountId);
  }
  revokeKey(prefix: string, now: number): Promise<ApiKeyRecord | undefined> {
    return accounts.revokeKey(this.db, prefix, now);
  }
  keyByHash(hash: string): Promise<StoredKey | undefined> {
    return accounts.keyByHash(this.db, hash);
  }
  touchKey(id: string, now: number): Promise<void> {
    return accounts.touchKey(this.db, id, now);
  }
  keysVersion(): Promise<string> {
    return accounts.keysVersion(this.db);
  }
  usage(accountId: string, fromDay: number, toDay: number): Promise<UsageRow[]> {
    return usageOf(this.db, accountId, fromDay, toDay);
  }

  insertMonitor(m: MonitorRecord): Promise<void> {
    return monitors.insertMonitor(this.db, m);
  }
  getMonitor(id: string, accountId: string): Promise<MonitorRecord | undefined> {
    return monitors.getMonitor(this.db, id, accountId);
  }
  listMonitors(accountId: string, after: string | null, limit: number): Promise<MonitorRecord[]> {
    return monitors.listMonitors(this.db, accountId, after, limit);
  }
  updateMonitor(m: MonitorRecord): Promise<boolean> {
    return monitors.updateMonitor(this.db, m);
  }
  deleteMonitor(id: string, accountId: string): Promise<boolean> {
    return monitors.deleteMonitor(this.db, id, accountId);
  }
  dueMonitors(now: number, limit: number): Promise<MonitorRecord[]> {
    return monitors.dueMonitors(this.db, now, limit);
  }
  claimMonitorSlot(read: Parameters<Store['claimMonitorSlot']>[0], run: MonitorRunRecord, nextRunAt: number | null) {
    return monitors.claimMonitorSlot(this.db, read, run, nextRunAt);
  }
  startMonitorRun(run: MonitorRunRecord) {
    return monitors.startMonitorRun(this.db, run);
  }
  monitorRunsToFinish(staleBefore: number, limit: number): Promise<MonitorRunRecord[]> {
    return monitors.runsToFinish(this.db, staleBefore, limit);
  }
  monitorRunMetrics(monitorId: string, accountId: string, o: { from?: number; to?: number }) {
    return monitors.runMetrics(this.db, monitorId, accountId, o);
  }
  monitorRunsIn(status: MonitorRunStatus, limit: number): Promise<MonitorRunRecord[]> {
    return monitors.runsIn(this.db, status, limit);
  }
  advanceMonitorRun(
    id: string,
    from: MonitorRunStatus,
    to: Parameters<Store['advanceMonitorRun']>[2],
  ): Promise<boolean> {
    return monitors.advanceRun(this.db, id, from, to);
  }
  monitorRuns(
    monitorId: string,
    accountId: string,
    o: Parameters<Store['monitorRuns']>[2],
  ): Promise<MonitorRunRecord[]> {
    return monitors.monitorRuns(this.db, monitorId, accountId, o);
  }
  monitorRunTasks(batchId: string, accountId: string): Promise<monitors.RunTask[]> {
    return monitors.runTasks(this.db, batchId, accountId);
  }
  deleteOldMonitorRuns(before: number, limit: number): Promise<number> {
    return monitors.deleteOldRuns(this.db, before, limit);
  }

  webhookSecrets(accountIds: readonly string[]): Promise<webhookSecrets.StoredWebhookSecret[]> {
    return webhookSecrets.webhookSecrets(this.db, accountIds);
  }
  createWebhookSecret(accountId: string, secret: string, now: number): Promise<void> {
    return webhookSecrets.createWebhookSecret(this.db, accountId, secret, now);
  }
  rotateWebhookSecret(accountId: string, secret: string, now: number, previousUntil: number): Promise<void> {
    return webhookSecrets.rotateWebhookSecret(this.db, accountId, secret, now, previousUntil);
  }

  getMeta(key: string): Promise<string | undefined> {
    return runtimeState.getMeta(this.db, key);
  }
  setMetaIfAbsent(key: string, value: string): Promise<string> {
    return runtimeState.setMetaIfAbsent(this.db, key, value);
  }
}
