import type { TaskFailure } from './task-failure.js';
import type { TaskType } from './task-types.js';
import type { Surface } from './engine-catalog.js';

export const TASK_STATUSES = ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set<TaskStatus>(['COMPLETED', 'FAILED']);

/** Engine payload after validation: only the known members are kept (unknown ones are ignored). */
export interface TaskPayload {
  prompt?: string;
  query?: string;
  country?: string;
  page?: number;
  action?: string;
  url?: string;
  community?: string;
  user?: string;
  /** `artifacts`: keep the task's evidence for its retention (src/domain/artifact.ts). */
  include?: { markdown?: boolean; rawResponse?: boolean; html?: boolean; artifacts?: boolean };
  /** Which surface answers, for an engine that has two (docs/contract.md#surfaces); absent: the engine's default. */
  surface?: Surface;
}

/** The batch a task was submitted in (src/domain/batch.ts), and the task's item index in it. */
interface BatchRef {
  id: string;
  index: number;
}

/** What a client asked for, normalised at the edge (canonical task type, clamped priority). */
export interface NewTask {
  id: string;
  taskType: TaskType;
  payload: unknown;
  priority: number;
  idempotencyKey: string | null;
  webhookUrl: string | null;
  /** Region the task is served from (upper-case ISO code), when it has one. */
  country: string | null;
  maxAttempts: number;
  creditsToCharge: number;
  createdAt: number;
  /** The account of the key that submitted it: only that account sees it. */
  accountId: string;
  /** Set when the task was submitted in a batch. */
  batch?: BatchRef;
  /** When it may first be claimed (ms); now when absent. A monitor's later samples are due later. */
  availableAt?: number;
}

/** A task as the store returns it. */
export interface TaskRecord extends NewTask {
  status: TaskStatus;
  attempts: number;
  result: unknown;
  error: string | null;
  /** Why its last attempt failed (src/domain/task-failure.ts); null until one has. */
  failure: TaskFailure | null;
  creditsCharged: number | null;
  updatedAt: number;
  finishedAt: number | null;
}

/** What the task metadata and credits of an answer are made of. */
export type TaskSummary = Pick<
  TaskRecord,
  | 'id'
  | 'taskType'
  | 'status'
  | 'priority'
  | 'createdAt'
  | 'idempotencyKey'
  | 'creditsToCharge'
  | 'creditsCharged'
  | 'accountId'
>;

/**
 * What a poll shows of a task: the record without its payload and the workers' bookkeeping. The
 * result stays the JSON text the store holds: the answer carries it as it is, never parsed and
 * re-serialised (docs/benchmarks.md).
 */
export type PolledTask = TaskSummary & Pick<TaskRecord, 'error' | 'failure'> & { resultJson: string | null };

/**
 * A task held by a worker: what an attempt reads of it (the claim returns no more, docs/benchmarks.md), and the
 * lease token that fences every write the worker makes.
 */
export interface ClaimedTask
  extends Pick<
    TaskRecord,
    | 'id'
    | 'taskType'
    | 'payload'
    | 'priority'
    | 'idempotencyKey'
    | 'webhookUrl'
    | 'country'
    | 'createdAt'
    | 'attempts'
    | 'maxAttempts'
    | 'creditsToCharge'
    | 'accountId'
  > {
  leaseToken: string;
  leaseExpiresAt: number;
  /** The exit address the claim leased for this attempt (PostgreSQL), its pool slot's token freed by the finish. */
  exitLease?: { resourceId: string; slotToken: string };
}

const PRIORITY_MIN = 1;
const PRIORITY_MAX = 10;
const PRIORITY_DEFAULT = 1;

export function clampPriority(p: number | undefined): number {
  if (p === undefined) return PRIORITY_DEFAULT;
  return Math.min(PRIORITY_MAX, Math.max(PRIORITY_MIN, Math.trunc(p)));
}
