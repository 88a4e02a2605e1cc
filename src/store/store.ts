import type { MonitorRecord, MonitorRunRecord, MonitorRunStatus } from '../domain/monitor.js';
import type { RunTask } from './monitors.js';
import type { Account, ApiKeyRecord, NewApiKey, StoredKey } from '../domain/account.js';
import type { UsageRow } from './usage.js';
import type { StoredWebhookSecret } from './webhook-secrets.js';
import type { BatchItem, BatchRecord, NewBatch } from '../domain/batch.js';
import type { ClaimedTask, NewTask, PolledTask, TaskRecord, TaskStatus } from '../domain/task.js';
import type { TaskFailure } from '../domain/task-failure.js';

/** Outcome of inserting one task: accepted, or refused because its idempotency key is taken. */
export type InsertOutcome =
  | { ok: true; task: TaskRecord }
  | { ok: false; reason: 'DUPLICATE_KEY'; existingId: string }
  | { ok: false; reason: 'STORE_ERROR'; message: string };

/** A webhook delivery written in the same transaction that made its task terminal. */
export interface WebhookOutbox {
  url: string;
  payload: unknown;
  /** The account of the task or batch it is about. */
  accountId: string;
}

export interface TerminalWrite {
  status: 'COMPLETED' | 'FAILED';
  result: unknown;
  error: string | null;
  /** Why the last attempt failed (FAILED only), stored as JSON beside `error`; absent means none recorded. */
  failure?: TaskFailure | null;
  creditsToCharge: number;
  creditsCharged: number;
  webhook: WebhookOutbox | null;
}

export interface DueDelivery {
  taskId: string;
  /** The account of its task or batch: its deliveries are signed with that account's secrets. */
  accountId: string;
  url: string;
  payload: string;
  attempts: number;
  leaseToken: string;
  /** Which delivery of the task this is: 0 the first, then one more per redelivery (its webhook-id). */
  redelivery: number;
  /** `attempts` when this delivery began: its own attempt number is `attempts + 1 - attemptsBase`. */
  attemptsBase: number;
}

/**
 * How a sender shares its delivery slots between accounts (webhooks/sender.ts), so that one account's receivers
 * that never answer cannot hold them all: an account holds at most `alone` deliveries, and at most `shared` when a
 * claim finds other accounts' deliveries due too.
 */
export interface DeliveryShare {
  /** Deliveries each account has in flight in this sender (accounts with none may be left out). */
  held: ReadonlyMap<string, number>;
  shared: number;
  alone: number;
}

/** What a redelivery request found: queued, a delivery still under way, or no webhook to send. */
export type RedeliveryOutcome = 'queued' | 'busy' | 'none';

/** A task's webhook delivery and its attempts (the delivery log). */
export interface DeliveryLogRow {
  url: string;
  status: string;
  nextAttemptAt: number;
  redeliveries: number;
  attempts: Array<{
    attempt: number;
    startedAt: number;
    finishedAt: number | null;
    outcome: string | null;
    httpStatus: number | null;
    error: string | null;
    nextAttemptAt: number | null;
    /** The delivery (0 the first, n the n-th redelivery) the attempt belonged to. */
    delivery: number;
  }>;
}

export type DeliveryOutcome =
  | { kind: 'delivered'; httpStatus: number }
  | { kind: 'retry'; at: number; error: string; httpStatus: number | null }
  | { kind: 'abandoned'; error: string; httpStatus: number | null };

export interface StatusCounts {
  QUEUED: number;
  PROCESSING: number;
  COMPLETED: number;
  FAILED: number;
}

export interface Stats {
  tasks: StatusCounts;
  byEngine: Record<string, StatusCounts>;
  webhooks: { pending: number; delivered: number; abandoned: number };
}

/** Which tasks a listing reads (GET /v1/async/tasks): one account's, by creation time, in id order. */
export interface TaskListQuery {
  accountId: string;
  /** Created at or after (epoch ms); the caller raises it to the start of retention, so expired tasks are left out. */
  since: number;
  /** Created before (epoch ms), or null for no bound. */
  until: number | null;
  /**
   * Only tasks past this id in the listing's order (the last of the previous page: after it oldest first, before it
   * newest first), or null from the start.
   */
  afterId: string | null;
  status: TaskStatus | null;
  /** Only tasks of this (canonical) type, or null for every type. */
  taskType: string | null;
  /** Only tasks whose request text (prompt, query, url, community or seed) contains this, ignoring case; or null. */
  text: string | null;
  /** `asc`: oldest first (creation order); `desc`: newest first. */
  order: 'asc' | 'desc';
  limit: number;
  /** Read each task's stored result too (`resultJson`); without it `resultJson` is null. */
  withResult: boolean;
  /** Read each task's request too (`payload`, as submitted); without it `payload` is undefined. */
  withPayload: boolean;
}

/** A task as a listing reads it: as polls read it, and its payload when asked for. */
/** With the payload asked for: what was asked and the region the task is served from. */
export type ListedTaskRow = PolledTask & { payload?: unknown; country?: string | null };

/** For a lease that expired: what the reaper did with the task. */
export interface ReapResult {
  requeued: string[];
  failed: string[];
}

/** A registered worker process, alive while registered (store/workers/liveness.ts). */
export interface WorkerRegistration {
  /** The id its claims are recorded under (a task's worker, a delivery's holder); new after a lost signal. */
  readonly id: string;
  /** False while the signal is lost (until registered again): the worker claims nothing then. */
  readonly live: boolean;
  /** Uses the signal's connection, so that a silently dropped one is found out (then `live` is false for a while). */
  verify(): Promise<void>;
  /** Ends the registration (after the worker handed back what it held). */
  close(): Promise<void>;
}

/** What the release of workers handed back: their tasks (as the reaper does) and the deliveries they held. */
export interface WorkersReleased extends ReapResult {
  workers: string[];
  deliveries: number;
}

/**
 * The task store. Every write that moves a task is conditional on its state and lease token:
 * QUEUED -> PROCESSING -> COMPLETED | FAILED, terminal states are final, and only the worker that
 * still holds the lease can finish or retry a task.
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;

  /**
   * Inserts in one transaction; a key held only by a task older than `notBefore` (expired) is taken over. With a
   * batch, its row too (the tasks name it in `NewTask.batch`).
   */
  insertTasks(tasks: NewTask[], notBefore?: number, batch?: NewBatch): Promise<InsertOutcome[]>;
  /** A batch of the account created at or after `notBefore`, with the counts of its tasks by status. */
  getBatch(id: string, accountId: string, notBefore: number): Promise<BatchRecord | undefined>;
  /** The account's batches created at or after `notBefore`, newest first, before batch `beforeId` (a cursor). */
  listBatches(
    accountId: string,
    notBefore: number,
    beforeId: string | null,
    limit: number,
  ): Promise<{ batches: BatchRecord[]; more: boolean }>;
  /** Up to `limit` of a batch's items after item index `after`, in order; with `withPayload`, what each asked. */
  batchItems(batch: BatchRecord, after: number, limit: number, withPayload?: boolean): Promise<BatchItem[]>;
  /** Marks open batches whose tasks are all terminal as completed and queues their webhook (see store/batches.ts). */
  completeBatches(
    now: number,
    notBefore: number,
    limit: number,
    webhookOf: (b: BatchRecord) => WebhookOutbox | null,
  ): Promise<BatchRecord[]>;
  /** Deletes batches created before `before` (and their deliveries), at most `limit`; returns how many. */
  deleteExpiredBatches(before: number, limit: number): Promise<number>;
  getTask(id: string, notBefore: number): Promise<TaskRecord | undefined>;
  /** The poll's read: `getTask` without the payload and the bookkeeping columns. */
  pollTask(id: string, notBefore: number): Promise<PolledTask | undefined>;
  /** Up to `limit` tasks of an account as polls read them, created in a time range, in id order (tasks/list.ts). */
  listTasks(q: TaskListQuery): Promise<ListedTaskRow[]>;

  /** Claims up to `limit` due QUEUED tasks of one type, never letting PROCESSING exceed `concurrency`. */
  claimTasks(args: {
    taskType: string;
    limit: number;
    concurrency: number;
    workerId: string;
    now: number;
    leaseMs: number;
  }): Promise<ClaimedTask[]>;
  heartbeat(leases: Array<{ id: string; leaseToken: string }>, leaseExpiresAt: number): Promise<number>;
  /** Makes a held task terminal (and writes its webhook delivery) in one transaction. False if the lease was lost. */
  finishTask(id: string, leaseToken: string, write: TerminalWrite, now: number): Promise<boolean>;
  /** Puts a held task back in the queue until `availableAt`, with its failure; false if the lease was lost. */
  retryTask(
    id: string,
    leaseToken: string,
    lastError: string,
    availableAt: number,
    now: number,
    failure?: TaskFailure | null,
  ): Promise<boolean>;
  /** Tasks whose lease expired go back to QUEUED, or FAILED when they have no attempt left. */
  reapExpiredLeases(now: number, failedWrite: (task: TaskRecord) => TerminalWrite): Promise<ReapResult>;
  /**
   * Registers a worker process with a liveness signal the store can see (store/workers/liveness.ts). `onLost` is told
   * when the signal was lost while the process lives (it registers again under a new id).
   */
  registerWorker(now: number, onLost: (e: unknown) => void): Promise<WorkerRegistration>;
  /** Hands back what workers whose signal is gone held: their tasks, engine slots and deliveries. */
  releaseDeadWorkers(now: number, failedWrite: (task: TaskRecord) => TerminalWrite): Promise<WorkersReleased>;
  /** Hands back what one worker holds, at once (its graceful stop). */
  releaseWorker(id: string, now: number, failedWrite: (task: TaskRecord) => TerminalWrite): Promise<WorkersReleased>;
  /** Deletes tasks created before `before` (and their deliveries), at most `limit` rows. */
  deleteExpired(before: number, limit: number): Promise<number>;
  /** Earliest time a QUEUED task becomes due, for the scheduler's timer. */
  nextAvailableAt(taskType: string): Promise<number | null>;
  /** The figures of /stats: of one account's tasks and deliveries, or of all (`accountId` undefined). */
  stats(notBefore: number, accountId?: string): Promise<Stats>;
  queuedAndRunning(notBefore: number): Promise<Record<string, { queued: number; processing: number }>>;

  /**
   * Claims due deliveries for the sender of worker `holder` (null: none registered; only the lease frees them), each
   * account within its `share` of the sender's slots when one is given.
   */
  claimDueDeliveries(
    now: number,
    limit: number,
    leaseMs: number,
    holder?: string | null,
    share?: DeliveryShare,
  ): Promise<DueDelivery[]>;
  /** Records that attempt `attempt` starts; false if it was already made (another sender got there first). */
  startDeliveryAttempt(
    taskId: string,
    leaseToken: string,
    attempt: number,
    now: number,
    /** The delivery the attempt belongs to (DueDelivery.redelivery); 0 when omitted. */
    delivery?: number,
  ): Promise<boolean>;
  /** Queues a fresh delivery of a settled one (delivered or abandoned), due at once, with its own five attempts. */
  requestRedelivery(taskId: string, now: number): Promise<RedeliveryOutcome>;
  finishDeliveryAttempt(
    taskId: string,
    leaseToken: string,
    attempt: number,
    outcome: DeliveryOutcome,
    now: number,
  ): Promise<void>;
  nextDeliveryAt(): Promise<number | null>;
  /** A task's webhook delivery with every attempt, for the delivery log; null without a webhook. */
  deliveryLog(taskId: string): Promise<DeliveryLogRow | null>;

  /** Records a pool lease when the resource has fewer than `capacity` live leases in any process. */
  /** `holder`: the worker process leasing (its registration's id), so that its death frees the lease. */
  acquirePoolLease(
    resourceId: string,
    capacity: number,
    now: number,
    expiresAt: number,
    holder?: string | null,
  ): Promise<string | null>;
  releasePoolLease(token: string): Promise<void>;

  /** Operator changes shared by every process (see src/pools/runtime-changes.ts). */
  putRuntimeChange(key: string, state: string, now: number): Promise<void>;
  runtimeChanges(): Promise<Array<{ key: string; state: string; updatedAt: number }>>;

  /** Client accounts and API keys (store/accounts.ts); every key change moves `keysVersion`. */
  createAccount(a: Account): Promise<Account | undefined>;
  accountByName(name: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  insertKey(k: NewApiKey): Promise<void>;
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  revokeKey(prefix: string, now: number): Promise<ApiKeyRecord | undefined>;
  keyByHash(hash: string): Promise<StoredKey | undefined>;
  touchKey(id: string, now: number): Promise<void>;
  keysVersion(): Promise<string>;
  /** An account's finished tasks and credits charged by day and engine, retained tasks and swept ones alike. */
  usage(accountId: string, fromDay: number, toDay: number): Promise<UsageRow[]>;

  /** Accounts' webhook signing secrets in their stored form (store/webhook-secrets.ts). */
  webhookSecrets(accountIds: readonly string[]): Promise<StoredWebhookSecret[]>;
  createWebhookSecret(accountId: string, secret: string, now: number): Promise<void>;
  rotateWebhookSecret(accountId: string, secret: string, now: number, previousUntil: number): Promise<void>;

  /** Visibility monitors of an account (store/monitors.ts); deleting one deletes its runs. */
  insertMonitor(m: MonitorRecord): Promise<void>;
  getMonitor(id: string, accountId: string): Promise<MonitorRecord | undefined>;
  listMonitors(accountId: string, after: string | null, limit: number): Promise<MonitorRecord[]>;
  updateMonitor(m: MonitorRecord): Promise<boolean>;
  deleteMonitor(id: string, accountId: string): Promise<boolean>;
  /** Monitor runs (store/monitors.ts): due monitors, a slot taken once, runs moved on conditionally. */
  dueMonitors(now: number, limit: number): Promise<MonitorRecord[]>;
  claimMonitorSlot(
    read: Pick<MonitorRecord, 'id' | 'nextRunAt' | 'updatedAt'>,
    run: MonitorRunRecord,
    nextRunAt: number | null,
  ): Promise<boolean>;
  /** A run started outside the schedule, unless the monitor has one open (store/monitors.ts). */
  startMonitorRun(run: MonitorRunRecord): Promise<'started' | 'in-progress' | 'gone'>;
  monitorRunsIn(status: MonitorRunStatus, limit: number): Promise<MonitorRunRecord[]>;
  monitorRunsToFinish(staleBefore: number, limit: number): Promise<MonitorRunRecord[]>;
  monitorRunMetrics(
    monitorId: string,
    accountId: string,
    o: { from?: number; to?: number },
  ): Promise<Array<{ id: string; slotAt: number; metrics: Record<string, unknown> }>>;
  advanceMonitorRun(
    id: string,
    from: MonitorRunStatus,
    to: Partial<Pick<MonitorRunRecord, 'status' | 'results' | 'metrics' | 'completedAt' | 'tasks'>>,
  ): Promise<boolean>;
  /** A monitor's runs, newest first; their saved answers only with `results` (store/monitors.ts). */
  monitorRuns(
    monitorId: string,
    accountId: string,
    o: { from?: number; to?: number; limit: number; results?: boolean },
  ): Promise<MonitorRunRecord[]>;
  /** The finished tasks of a run's batch, in batch order, in one read (a run's end saves them). */
  monitorRunTasks(batchId: string, accountId: string): Promise<RunTask[]>;
  deleteOldMonitorRuns(before: number, limit: number): Promise<number>;

  getMeta(key: string): Promise<string | undefined>;
  setMetaIfAbsent(key: string, value: string): Promise<string>;
}

export type { TaskStatus };
