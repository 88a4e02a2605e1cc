import type { NewBatch } from '../domain/batch.js';
import { RequestError } from '../domain/request-errors.js';
import type { NewTask } from '../domain/task.js';
import { newTaskId } from '../domain/task-id.js';
import type { TaskType } from '../domain/task-types.js';
import { creditsView, taskMetadata } from '../domain/task-view.js';
import type { Metrics } from '../ops/metrics.js';
import type { InsertOutcome, TaskQueue } from '../store/ports.js';
import { envelopeToTask, type EnvelopeInput, type SubmissionContext } from './envelope.js';

/**
 * Submitting tasks: one (POST /v1/async/task and the analysis endpoints) or a batch of up to 500 mixed items
 * (POST /v1/async/task/batch). A task the store accepted is counted and wakes its engine's workers; a taken
 * idempotency key answers 409 RESOURCE_ALREADY_EXISTS with the existing task's id, any other refusal ENQUEUE_ERROR.
 * In a batch each item succeeds or fails on its own, and the batch row is written with the tasks in one insert.
 */

export const BATCH_MAX_ITEMS = 500;

/** What submitting needs of the service. */
export interface SubmitDeps extends SubmissionContext {
  store: { tasks: Pick<TaskQueue, 'insert'> };
  metrics: Pick<Metrics, 'tasksSubmitted'>;
  /** Wakes the workers of an engine after an insert. */
  notify: (taskType: TaskType) => void;
  /** Task retention: an idempotency key of a task older than this may be taken over. */
  retentionMs: number;
}

/** A task as the submit answers it. */
export interface Accepted {
  success: true;
  task: ReturnType<typeof taskMetadata>;
  credits: ReturnType<typeof creditsView>;
}

/** Inserts one task; throws the RequestError of a refusal (409 on a taken key). */
export async function submitOne(deps: SubmitDeps, task: NewTask): Promise<Accepted> {
  const [outcome] = await deps.store.tasks.insert({ tasks: [task], notBefore: deps.now() - deps.retentionMs });
  return acceptedOrThrow(deps, outcome);
}

function acceptedOrThrow(deps: SubmitDeps, outcome: InsertOutcome | undefined): Accepted {
  if (!outcome?.ok) {
    if (outcome?.reason === 'DUPLICATE_KEY') {
      throw new RequestError('RESOURCE_ALREADY_EXISTS', undefined, { id: outcome.existingId });
    }
    throw new RequestError('ENQUEUE_ERROR');
  }
  deps.metrics.tasksSubmitted.inc({ engine: outcome.task.taskType });
  deps.notify(outcome.task.taskType);
  return { success: true as const, task: taskMetadata(outcome.task), credits: creditsView(outcome.task) };
}

/** One item of a batch: its task as accepted, or why it was refused. */
type BatchItemOutcome = { index: number; accepted: Accepted } | { index: number; error: unknown };

export interface BatchSubmitted {
  /** When the batch was made (its id's time and the time of its items' errors). */
  at: number;
  /** The batch row, or null when the store could not write it (every item then failed ENQUEUE_ERROR). */
  batch: { id: string; size: number } | null;
  /** In the items' order. */
  items: BatchItemOutcome[];
}

/**
 * Submits a batch of envelopes for `accountId`. `checkItem` validates an item against the envelope's schema (the
 * HTTP layer's) and throws its RequestError; `onStoreError` hears a failed insert, after which every item that got
 * that far fails ENQUEUE_ERROR. The caller has checked the item count (1 to BATCH_MAX_ITEMS).
 */
export async function submitBatch(
  deps: SubmitDeps,
  accountId: string,
  items: readonly unknown[],
  webhookUrl: string | null,
  checkItem: (item: unknown) => EnvelopeInput,
  onStoreError: (e: unknown) => void,
): Promise<BatchSubmitted> {
  const now = deps.now();
  const batch: NewBatch = { id: newTaskId(now), size: items.length, webhookUrl, createdAt: now, accountId };
  const out: BatchItemOutcome[] = new Array(items.length);
  const toInsert: Array<{ index: number; task: NewTask }> = [];
  items.forEach((item, index) => {
    try {
      const task = envelopeToTask(checkItem(item), deps, accountId);
      task.batch = { id: batch.id, index };
      toInsert.push({ index, task });
    } catch (e) {
      out[index] = { index, error: e };
    }
  });
  let outcomes: InsertOutcome[];
  let batchMade = true;
  try {
    outcomes = await deps.store.tasks.insert({
      tasks: toInsert.map((x) => x.task),
      notBefore: deps.now() - deps.retentionMs,
      batch,
    });
  } catch (e) {
    onStoreError(e);
    outcomes = toInsert.map(() => ({ ok: false, reason: 'STORE_ERROR', message: 'store unavailable' }));
    batchMade = false;
  }
  toInsert.forEach(({ index }, i) => {
    try {
      out[index] = { index, accepted: acceptedOrThrow(deps, outcomes[i]) };
    } catch (e) {
      out[index] = { index, error: e };
    }
  });
  return { at: now, batch: batchMade ? { id: batch.id, size: batch.size } : null, items: out };
}
