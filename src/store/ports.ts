import type { Account, ApiKeyRecord, NewApiKey, StoredKey } from '../domain/account.js';
import type { BatchItem, BatchRecord, NewBatch } from '../domain/batch.js';
import type { MonitorRecord, MonitorRunRecord, MonitorRunStatus } from '../domain/monitor.js';
import type { StoredArtifact } from '../domain/artifact.js';
import type { ClaimedTask, NewTask, PolledTask, TaskRecord } from '../domain/task.js';
import type { TaskFailure } from '../domain/task-failure.js';
import type {
  DeliveryLogRow,
  DeliveryOutcome,
  DeliveryShare,
  DueDelivery,
  InsertOutcome,
  ListedTaskRow,
  ReapResult,
  RedeliveryOutcome,
  RunTask,
  Stats,
  StoredWebhookSecret,
  TaskListQuery,
  TerminalWrite,
  UsageRow,
  WebhookOutbox,
  WorkerRegistration,
  WorkersReleased,
} from './records.js';

/*
 * The store's ports: one small interface per aggregate, each what its consumers need and nothing else. A consumer
 * takes the port it uses (the worker a TaskQueue, the webhook sender an Outbox), never the whole store; each database
 * wires every port to its forms in one object literal (sqlite/sqlite-store.ts, postgres/postgres-store.ts).
 * A member takes one value that is not a time as it is, and anything more (every time and lease included) as one
 * argument object, so that no call site depends on the order of two numbers.
 */

export type * from './records.js';
export { DAY_MS } from './records.js';

/** Makes a task terminal when the reaper or a worker's release gives up on it (queue/terminal-write.ts). */
export type FailedWrite = (task: TaskRecord) => TerminalWrite;

/** A claim of due QUEUED tasks of one type, never letting PROCESSING exceed `concurrency`. */
export interface ClaimRequest {
  taskType: string;
  limit: number;
  concurrency: number;
  workerId: string;
  now: number;
  leaseMs: number;
  /**
   * The claim's lease token (a fresh one when absent). The worker chooses it, so that it can give back a claim that
   * failed on its side (TaskQueue.abandonClaim).
   */
  leaseToken?: string;
  /**
   * The exit addresses the worker's pool would pick from now: a store that records pool slots (PostgreSQL) leases
   * each claimed task's exit address in the claim (ClaimedTask.exitLease); one that counts them in memory ignores it.
   */
  exitOffer?: ExitOffer;
}

/** Exit addresses offered to a claim, least loaded first, and how the claim picks and holds them. */
export interface ExitOffer {
  resources: ReadonlyArray<{ id: string; country: string; capacity: number }>;
  /** The engine's country for a task that names none (any address when null). */
  defaultCountry: string | null;
  /** How long a slot holds if its worker dies without freeing it (the attempt's timeout and a margin). */
  holdMs: number;
}

/**
 * The tasks. Every write that moves a task is conditional on its state and lease token: QUEUED -> PROCESSING ->
 * COMPLETED | FAILED, terminal states are final, and only the worker that still holds the lease can finish or retry a
 * task (tasks/lease-fence.ts).
 */
export interface TaskQueue {
  /**
   * Inserts in one transaction; a key held only by a task older than `notBefore` (expired) is taken over. With a
   * batch, its row too (the tasks name it in `NewTask.batch`).
   */
  insert(a: { tasks: NewTask[]; notBefore?: number; batch?: NewBatch }): Promise<InsertOutcome[]>;
  get(a: { id: string; notBefore: number }): Promise<TaskRecord | undefined>;
  /** The poll's read: `get` without the payload and the bookkeeping columns. */
  poll(a: { id: string; notBefore: number }): Promise<PolledTask | undefined>;
  /** Up to `limit` tasks of an account as polls read them, created in a time range, in id order (tasks/list.ts). */
  list(q: TaskListQuery): Promise<ListedTaskRow[]>;
  claim(a: ClaimRequest): Promise<ClaimedTask[]>;
  /**
   * Gives back a claim that failed on the caller's side after the store may have committed it: its tasks to QUEUED,
   * the attempt it counted taken back, its exit addresses freed (tasks/abandon.ts). How many tasks it held.
   */
  abandonClaim(a: { leaseToken: string; now: number }): Promise<number>;
  /** Extends each lease still held to `expiresAt`; how many were. */
  heartbeat(a: { leases: Array<{ id: string; leaseToken: string }>; expiresAt: number }): Promise<number>;
  /** Makes a held task terminal (and writes its webhook delivery) in one transaction. False if the lease was lost. */
  /** `releaseSlot`: a pool slot's token (ClaimedTask.exitLease) freed in the same write, whatever the fence says. */
  finish(a: {
    id: string;
    leaseToken: string;
    write: TerminalWrite;
    now: number;
    releaseSlot?: string;
  }): Promise<boolean>;
  /** Puts a held task back in the queue until `availableAt`, with its failure; false if the lease was lost. */
  retry(a: {
    id: string;
    leaseToken: string;
    error: string;
    availableAt: number;
    now: number;
    failure?: TaskFailure | null;
  }): Promise<boolean>;
  /** Tasks whose lease expired go back to QUEUED, or FAILED when they have no attempt left. */
  reapExpired(a: { now: number; failedWrite: FailedWrite }): Promise<ReapResult>;
  /** Deletes tasks created before `before` (and their deliveries), at most `limit` rows. */
  deleteExpired(a: { before: number; limit: number }): Promise<number>;
  /** Earliest time a QUEUED task of the type becomes due, for the scheduler's timer. */
  nextAvailableAt(taskType: string): Promise<number | null>;
  /** The artefacts an account's task kept ([] none); undefined when it has no such task within retention. */
  artifacts(a: { id: string; accountId: string; notBefore: number }): Promise<StoredArtifact[] | undefined>;
}

/** Where an artefact's bytes are: its task, the attempt that wrote it and its fixed name (src/domain/artifact.ts). */
export interface ArtifactRef {
  taskId: string;
  attempt: number;
  name: string;
}

/** An artefact's file opened for reading: its size, and its bytes from `start` to `end` (inclusive) as a stream. */
export interface ArtifactFile {
  size: number;
  stream(range?: { start: number; end: number }): NodeJS.ReadableStream;
}

/**
 * The files of the artefacts (store/artifacts/directory.ts). A write is atomic: a reader sees the whole file or none.
 * Files are kept per task and deleted by their task's creation time, which the task's id carries, so the retention
 * sweep removes them without reading the store.
 */
export interface ArtifactFiles {
  /** Where they are kept, for the log. */
  readonly location: string;
  write(a: ArtifactRef & { bytes: Uint8Array }): Promise<void>;
  /** The file, or null when it is not there (swept, or never written). */
  open(a: ArtifactRef): Promise<ArtifactFile | null>;
  /** Deletes the files of every task created before `before`; how many tasks' files went. */
  purgeBefore(before: number): Promise<number>;
}

/** The figures of /stats and of the metrics. */
export interface Figures {
  /** Of one account's tasks and deliveries created at or after `notBefore`, or of all (`accountId` absent). */
  stats(a: { notBefore: number; accountId?: string }): Promise<Stats>;
  queuedAndRunning(a: { notBefore: number }): Promise<Record<string, { queued: number; processing: number }>>;
  /**
   * Folds the counts' pending changes into one row per count where a store keeps them as rows of changes
   * (PostgreSQL); returns the rows it wrote (0 where there is nothing to fold, or another process is folding).
   */
  foldCounts(): Promise<number>;
}

/** The webhook outbox: deliveries written with their task's terminal state, claimed and attempted by the senders. */
export interface Outbox {
  /**
   * Claims due deliveries for the sender of worker `holder` (null or absent: none registered; only the lease frees
   * them), each account within its `share` of the sender's slots when one is given.
   */
  claimDue(a: {
    now: number;
    limit: number;
    leaseMs: number;
    holder?: string | null;
    share?: DeliveryShare;
  }): Promise<DueDelivery[]>;
  /**
   * Records that attempt `attempt` of delivery `delivery` (DueDelivery.redelivery; 0 when absent) starts; false if
   * it was already made (another sender got there first).
   */
  startAttempt(a: {
    taskId: string;
    leaseToken: string;
    attempt: number;
    now: number;
    delivery?: number;
  }): Promise<boolean>;
  finishAttempt(a: {
    taskId: string;
    leaseToken: string;
    attempt: number;
    outcome: DeliveryOutcome;
    now: number;
  }): Promise<void>;
  /** Queues a fresh delivery of a settled one (delivered or abandoned), due at once, with its own five attempts. */
  requestRedelivery(a: { taskId: string; now: number }): Promise<RedeliveryOutcome>;
  nextDueAt(): Promise<number | null>;
  /** A task's webhook delivery with every attempt, for the delivery log; null without a webhook. */
  log(taskId: string): Promise<DeliveryLogRow | null>;
}

/** Batches of tasks (store/batches.ts); their tasks are inserted through TaskQueue.insert. */
export interface Batches {
  /** A batch of the account created at or after `notBefore`, with the counts of its tasks by status. */
  get(a: { id: string; accountId: string; notBefore: number }): Promise<BatchRecord | undefined>;
  /** The account's batches created at or after `notBefore`, newest first, before batch `beforeId` (a cursor). */
  list(a: {
    accountId: string;
    notBefore: number;
    beforeId: string | null;
    limit: number;
  }): Promise<{ batches: BatchRecord[]; more: boolean }>;
  /** Up to `limit` of a batch's items after item index `after`, in order; with `withPayload`, what each asked. */
  items(a: { batch: BatchRecord; after: number; limit: number; withPayload?: boolean }): Promise<BatchItem[]>;
  /** Marks open batches whose tasks are all terminal as completed and queues their webhook (store/batches.ts). */
  complete(a: {
    now: number;
    notBefore: number;
    limit: number;
    webhookOf: (b: BatchRecord) => WebhookOutbox | null;
  }): Promise<BatchRecord[]>;
  /** Deletes batches created before `before` (and their deliveries), at most `limit`; returns how many. */
  deleteExpired(a: { before: number; limit: number }): Promise<number>;
}

/** Client accounts and API keys (store/accounts.ts); every key change moves `keysVersion`. */
export interface Accounts {
  create(a: Account): Promise<Account | undefined>;
  byName(name: string): Promise<Account | undefined>;
  list(): Promise<Account[]>;
  insertKey(k: NewApiKey): Promise<void>;
  /** The keys of one account, or of all (`accountId` absent). */
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  revokeKey(a: { prefix: string; now: number }): Promise<ApiKeyRecord | undefined>;
  keyByHash(hash: string): Promise<StoredKey | undefined>;
  touchKey(a: { id: string; now: number }): Promise<void>;
  keysVersion(): Promise<string>;
}

/** Accounts' webhook signing secrets in their stored form (store/webhook-secrets.ts). */
export interface WebhookSecrets {
  of(accountIds: readonly string[]): Promise<StoredWebhookSecret[]>;
  create(a: { accountId: string; secret: string; now: number }): Promise<void>;
  rotate(a: { accountId: string; secret: string; now: number; previousUntil: number }): Promise<void>;
}

/** Visibility monitors and their runs (store/monitors.ts); deleting a monitor deletes its runs. */
export interface Monitors {
  insert(m: MonitorRecord): Promise<void>;
  get(a: { id: string; accountId: string }): Promise<MonitorRecord | undefined>;
  list(a: { accountId: string; after: string | null; limit: number }): Promise<MonitorRecord[]>;
  update(m: MonitorRecord): Promise<boolean>;
  delete(a: { id: string; accountId: string }): Promise<boolean>;
  /** Active monitors due at `now`, earliest first. */
  due(a: { now: number; limit: number }): Promise<MonitorRecord[]>;
  /** Takes a scheduled slot once, whichever process gets there first, and moves the monitor to `nextRunAt`. */
  claimSlot(a: {
    read: Pick<MonitorRecord, 'id' | 'nextRunAt' | 'updatedAt'>;
    run: MonitorRunRecord;
    nextRunAt: number | null;
  }): Promise<boolean>;
  /** A run started outside the schedule, unless the monitor has one open. */
  startRun(run: MonitorRunRecord): Promise<'started' | 'in-progress' | 'gone'>;
  runsIn(a: { status: MonitorRunStatus; limit: number }): Promise<MonitorRunRecord[]>;
  runsToFinish(a: { staleBefore: number; limit: number }): Promise<MonitorRunRecord[]>;
  /** Completed runs' figures in [from, to), oldest first; with `latest`, only the latest that many of them. */
  runMetrics(a: {
    monitorId: string;
    accountId: string;
    from?: number;
    to?: number;
    latest?: number;
  }): Promise<Array<{ id: string; slotAt: number; metrics: Record<string, unknown> }>>;
  /**
   * Moves a run on from status `from` only; false when it was not there. With `event`, a webhook delivery keyed by
   * the run's id is queued in the same transaction (a run's signals, docs/contract.md).
   */
  advanceRun(a: {
    id: string;
    from: MonitorRunStatus;
    to: Partial<Pick<MonitorRunRecord, 'status' | 'results' | 'metrics' | 'completedAt' | 'tasks'>>;
    event?: { webhook: WebhookOutbox; now: number };
  }): Promise<boolean>;
  /** A monitor's runs, newest first; their saved answers only with `results`. */
  runs(a: {
    monitorId: string;
    accountId: string;
    from?: number;
    to?: number;
    limit: number;
    results?: boolean;
  }): Promise<MonitorRunRecord[]>;
  /** The finished tasks of a run's batch, in batch order, in one read (a run's end saves them). */
  runTasks(a: { batchId: string; accountId: string }): Promise<RunTask[]>;
  deleteOldRuns(a: { before: number; limit: number }): Promise<number>;
}

/** Usage kept past retention (store/usage.ts). */
export interface Usage {
  /** An account's finished tasks and credits charged by day and engine, retained tasks and swept ones alike. */
  byDay(a: { accountId: string; fromDay: number; toDay: number }): Promise<UsageRow[]>;
}

/** State shared by every process: operator changes (src/pools/runtime-changes.ts) and the store's own settings. */
export interface RuntimeState {
  putChange(a: { key: string; state: string; now: number }): Promise<void>;
  changes(): Promise<Array<{ key: string; state: string; updatedAt: number }>>;
  getMeta(key: string): Promise<string | undefined>;
  /** Sets a setting unless one is set (the first writer wins); the value that holds. */
  setMetaIfAbsent(a: { key: string; value: string }): Promise<string>;
}

/** Exit-address and account leases recorded in the database, for several worker processes (store/pool-slots.ts). */
export interface PoolSlots {
  /** A lease of the resource while it has fewer than `capacity` live ones, else null; `holder`'s death frees it. */
  acquire(a: {
    resourceId: string;
    capacity: number;
    now: number;
    expiresAt: number;
    holder?: string | null;
  }): Promise<string | null>;
  release(token: string): Promise<void>;
}

/** Worker processes and their liveness signal (store/workers/liveness.ts). */
export interface WorkerLiveness {
  /**
   * Registers this worker process with a signal the store can see. `onLost` is told when the signal was lost while
   * the process lives (it registers again under a new id).
   */
  register(a: { now: number; onLost: (e: unknown) => void }): Promise<WorkerRegistration>;
  /** Hands back what workers whose signal is gone held: their tasks, pool slots and deliveries. */
  releaseDead(a: { now: number; failedWrite: FailedWrite }): Promise<WorkersReleased>;
  /** Hands back what one worker holds, at once (its graceful stop). */
  release(a: { id: string; now: number; failedWrite: FailedWrite }): Promise<WorkersReleased>;
  /**
   * How many worker processes are alive (PostgreSQL: their advisory lock held, so a dead one no longer counts before
   * the release of the dead removes its row).
   */
  count(): Promise<number>;
}
