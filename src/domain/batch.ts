import { isoOrNull } from './clock.js';
import { TASK_STATUSES, TERMINAL_STATUSES, type TaskStatus } from './task.js';

/** A batch as submitted: `size` items (valid or not) in one POST /v1/async/task/batch. */
export interface NewBatch {
  id: string;
  size: number;
  /** Receives one `batch.completed` delivery when every task of the batch is terminal. */
  webhookUrl: string | null;
  createdAt: number;
  /** The account of the key that submitted it: only that account sees it. */
  accountId: string;
}

/** A batch as the store returns it: its row and the counts of its tasks by status. */
export interface BatchRecord extends NewBatch {
  /** Items accepted as tasks (the others failed at submission and have no task). */
  total: number;
  /** The least and greatest id of its tasks (null without any), where the store finds them. */
  firstTaskId: string | null;
  lastTaskId: string | null;
  completedAt: number | null;
  counts: Record<TaskStatus, number>;
  /** The latest change to any of its tasks (null when it has none). */
  updatedAt: number | null;
}

export interface BatchItem {
  index: number;
  taskId: string;
  status: TaskStatus;
  /** The engine (task type) and the region the task is served from: a batch page shows which is which. */
  taskType: string;
  country: string | null;
  /** What was asked, as submitted; read only when asked for (`include=request`). */
  request?: { payload: unknown };
}

export function emptyStatusCounts(): Record<TaskStatus, number> {
  return Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
}

/** Tasks of the batch that are terminal (COMPLETED or FAILED). */
function doneCount(b: BatchRecord): number {
  let n = 0;
  for (const s of TERMINAL_STATUSES) n += b.counts[s];
  return n;
}

/** The batch as GET /v1/async/batch/{id} and its `batch.completed` delivery show it. */
export interface BatchView {
  id: string;
  size: number;
  total: number;
  rejected: number;
  done: number;
  counts: Record<TaskStatus, number>;
  createdAt: string;
  updatedAt: string | null;
  completedAt: string | null;
}

export function batchView(b: BatchRecord): BatchView {
  return {
    id: b.id,
    size: b.size,
    total: b.total,
    rejected: b.size - b.total,
    done: doneCount(b),
    counts: b.counts,
    createdAt: new Date(b.createdAt).toISOString(),
    updatedAt: isoOrNull(b.updatedAt),
    completedAt: isoOrNull(b.completedAt),
  };
}

/** The body of the `batch.completed` delivery: an event type (task deliveries have none, by contract) and the batch. */
export function batchCompletedPayload(b: BatchRecord): { type: 'batch.completed'; batch: BatchView } {
  return { type: 'batch.completed', batch: batchView(b) };
}
