import type { PolledTask, TaskStatus } from './task.js';
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

export function taskMetadata(t: PolledTask, status: TaskStatus = t.status): TaskMetadata {
  const m: TaskMetadata = { id: t.id, taskType: t.taskType, status, priority: t.priority, createdAt: new Date(t.createdAt).toISOString() };
  if (t.idempotencyKey !== null) m.idempotencyKey = t.idempotencyKey;
  return m;
}

/** 0/0 until terminal; afterwards the persisted charge the webhook reported (decisions.md item 8). */
export function creditsView(t: PolledTask): Credits {
  if (!TERMINAL_STATUSES.has(t.status)) return { creditsToCharge: 0, creditsCharged: 0 };
  return { creditsToCharge: t.creditsToCharge, creditsCharged: t.creditsCharged ?? 0 };
}

export interface PollingView {
  success: true;
  task: TaskMetadata;
  credits: Credits;
  response?: unknown;
  error?: string;
}

export function pollingView(t: PolledTask): PollingView {
  const v: PollingView = { success: true, task: taskMetadata(t), credits: creditsView(t) };
  if (t.status === 'COMPLETED') v.response = t.result ?? {};
  if (t.status === 'FAILED') v.error = t.error ?? '';
  return v;
}

export interface WebhookPayload {
  task: TaskMetadata;
  credits: { creditsToCharge: number; creditsCharged: number };
  response: unknown;
}

export function webhookPayload(
  t: PolledTask,
  terminal: { status: 'COMPLETED' | 'FAILED'; result: unknown; error: string | null; creditsToCharge: number; creditsCharged: number },
): WebhookPayload {
  return {
    task: taskMetadata(t, terminal.status),
    credits: { creditsToCharge: terminal.creditsToCharge, creditsCharged: terminal.creditsCharged },
    response: terminal.status === 'COMPLETED' ? terminal.result : { error: terminal.error },
  };
}
