import type { PolledTask, TaskRecord, TaskStatus } from '../domain/task.js';
import type { TaskFailure } from '../domain/task-failure.js';
import type { StoredArtifact } from '../domain/artifact.js';

/* What the store's ports (ports.ts) take and give, beside the domain's own records. */

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
  /** The artefacts the task keeps, their files already in place (ArtifactFiles); absent or empty: none. */
  artifacts?: StoredArtifact[];
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

/** A run's task as its end reads it: what the saved result keeps. */
export type RunTask = Pick<TaskRecord, 'id' | 'taskType' | 'status' | 'country' | 'payload' | 'result' | 'error'> & {
  /** The task's index in the run's batch (its sample is this modulo the run's samples). */
  batchIndex: number | null;
};

/** Usage is counted by day: days since 1970-01-01 (UTC). */
export const DAY_MS = 86_400_000;

/** An account's usage of one day (UTC) and engine. */
export interface UsageRow {
  /** Days since 1970-01-01 (UTC). */
  day: number;
  taskType: string;
  tasks: number;
  credits: number;
}

/**
 * Accounts' webhook signing secrets (migrations/023-webhook-secrets.ts), as stored: `secret` and `previousSecret`
 * are the stored forms (sealed or `whsec_…`); src/webhooks/account-secrets.ts makes, seals and opens them.
 */
export interface StoredWebhookSecret {
  accountId: string;
  secret: string;
  createdAt: number;
  previousSecret: string | null;
  previousExpiresAt: number | null;
}
