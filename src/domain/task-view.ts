import type { PolledTask, TaskStatus, TaskSummary } from './task.js';
import { TERMINAL_STATUSES } from './task.js';
import type { TaskFailure } from './task-failure.js';

/** Task metadata as the contract shows it; `idempotencyKey` is omitted (not null) when none was given. */
export interface TaskMetadata {
  id: string;
  taskType: string;
  status: TaskStatus;
  priority: number;
  createdAt: string;
  idempotencyKey?: string;
}

export interface Credits {
  creditsToCharge: number;
  creditsCharged: number | null;
}

/** What a task's metadata is made of (a held task's status is the terminal one the caller names). */
type MetadataSource = Pick<TaskSummary, 'id' | 'taskType' | 'priority' | 'createdAt' | 'idempotencyKey'>;

export function taskMetadata(t: TaskSummary): TaskMetadata;
export function taskMetadata(t: MetadataSource, status: TaskStatus): TaskMetadata;
export function taskMetadata(t: MetadataSource & { status?: TaskStatus }, status?: TaskStatus): TaskMetadata {
  const m: TaskMetadata = {
    id: t.id,
    taskType: t.taskType,
    // The overloads make one of the two present.
    status: (status ?? t.status) as TaskStatus,
    priority: t.priority,
    createdAt: new Date(t.createdAt).toISOString(),
  };
  if (t.idempotencyKey !== null) m.idempotencyKey = t.idempotencyKey;
  return m;
}

/** 0/0 until terminal; afterwards the persisted charge the webhook reported (docs/contract.md#credits). */
export function creditsView(t: TaskSummary): Credits {
  if (!TERMINAL_STATUSES.has(t.status)) return { creditsToCharge: 0, creditsCharged: 0 };
  return { creditsToCharge: t.creditsToCharge, creditsCharged: t.creditsCharged ?? 0 };
}

/** The polling answer but its `response` (a COMPLETED task's result), which goes last as the stored JSON text. */
export interface PollingView {
  success: true;
  task: TaskMetadata;
  credits: Credits;
  error?: string;
  /** Why the last attempt failed, beside the fixed `error` string; present when FAILED and known. */
  failure?: TaskFailure;
}

export function pollingView(t: PolledTask): { view: PollingView; responseJson: string | null } {
  const view: PollingView = { success: true, task: taskMetadata(t), credits: creditsView(t) };
  if (t.status === 'FAILED') {
    view.error = t.error ?? '';
    if (t.failure) view.failure = t.failure;
  }
  return { view, responseJson: t.status === 'COMPLETED' ? (t.resultJson ?? '{}') : null };
}

/**
 * A view's JSON text with a COMPLETED task's stored result (JSON text) as its last member, `response`: the result is
 * never parsed and re-serialised (docs/benchmarks.md). Without a result, the view's text as it is.
 */
export function withResponseJson(viewJson: string, responseJson: string | null): string {
  return responseJson === null ? viewJson : `${viewJson.slice(0, -1)},"response":${responseJson}}`;
}

/** A task in a listing (GET /v1/async/tasks): the polling view without `success`; `error` only with the outcome. */
export interface ListedTask {
  task: TaskMetadata;
  credits: Credits;
  error?: string;
  failure?: TaskFailure;
  /** What the client asked and the region it is served from (with `include=request`). */
  request?: { payload: unknown; country: string | null };
}

/**
 * The polling view of a task as a listing shows it; with `withOutcome`, a FAILED task's `error` and a COMPLETED
 * task's result (`responseJson`, to go last as `response`), as polling shows them.
 */
export function listedView(t: PolledTask, withOutcome: boolean): { item: ListedTask; responseJson: string | null } {
  const { view, responseJson } = pollingView(t);
  const item: ListedTask = { task: view.task, credits: view.credits };
  if (withOutcome && view.error !== undefined) item.error = view.error;
  if (withOutcome && view.failure !== undefined) item.failure = view.failure;
  return { item, responseJson: withOutcome ? responseJson : null };
}

export interface WebhookPayload {
  task: TaskMetadata;
  credits: { creditsToCharge: number; creditsCharged: number };
  response: unknown;
  /** As polling shows it: present when FAILED and known. */
  failure?: TaskFailure;
}

export function webhookPayload(
  t: MetadataSource,
  terminal: {
    status: 'COMPLETED' | 'FAILED';
    result: unknown;
    error: string | null;
    failure: TaskFailure | null;
    creditsToCharge: number;
    creditsCharged: number;
  },
): WebhookPayload {
  const payload: WebhookPayload = {
    task: taskMetadata(t, terminal.status),
    credits: { creditsToCharge: terminal.creditsToCharge, creditsCharged: terminal.creditsCharged },
    response: terminal.status === 'COMPLETED' ? terminal.result : { error: terminal.error },
  };
  if (terminal.status === 'FAILED' && terminal.failure) payload.failure = terminal.failure;
  return payload;
}
