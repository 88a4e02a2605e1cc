import type { PolledTask, TaskStatus, TaskSummary } from './task.js';
import { TERMINAL_STATUSES } from './task.js';

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

export function taskMetadata(t: TaskSummary, status: TaskStatus = t.status): TaskMetadata {
  const m: TaskMetadata = {
    id: t.id,
    taskType: t.taskType,
    status,
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
}

export function pollingView(t: PolledTask): { view: PollingView; responseJson: string | null } {
  const view: PollingView = { success: true, task: taskMetadata(t), credits: creditsView(t) };
  if (t.status === 'FAILED') view.error = t.error ?? '';
  return { view, responseJson: t.status === 'COMPLETED' ? (t.resultJson ?? '{}') : null };
}

export interface WebhookPayload {
  task: TaskMetadata;
  credits: { creditsToCharge: number; creditsCharged: number };
  response: unknown;
}

export function webhookPayload(
  t: TaskSummary,
  terminal: {
    status: 'COMPLETED' | 'FAILED';
    result: unknown;
    error: string | null;
    creditsToCharge: number;
    creditsCharged: number;
  },
): WebhookPayload {
  return {
    task: taskMetadata(t, terminal.status),
    credits: { creditsToCharge: terminal.creditsToCharge, creditsCharged: terminal.creditsCharged },
    response: terminal.status === 'COMPLETED' ? terminal.result : { error: terminal.error },
  };
}
