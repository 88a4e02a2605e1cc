import { taskErrorString } from '../domain/engine-errors.js';
import type { TaskRecord } from '../domain/task.js';
import { webhookPayload } from '../domain/task-view.js';
import type { TerminalWrite } from '../store/store.js';
import type { AttemptOutcome } from './attempt-runner.js';

/** The terminal row for an attempt's outcome, with its webhook delivery when the task asked for one. */
export function terminalWrite(task: TaskRecord, outcome: AttemptOutcome, credits: number): TerminalWrite {
  const base =
    outcome.kind === 'completed'
      ? {
          status: 'COMPLETED' as const,
          result: outcome.response,
          error: null,
          creditsToCharge: outcome.credits ?? credits,
          creditsCharged: outcome.credits ?? credits,
        }
      : {
          status: 'FAILED' as const,
          result: undefined,
          error: outcome.error,
          creditsToCharge: credits,
          creditsCharged: 0,
        };
  const webhook = task.webhookUrl
    ? { url: task.webhookUrl, payload: webhookPayload(task, base), accountId: task.accountId }
    : null;
  return { ...base, webhook };
}

/** The terminal row of a task whose lease expired with no attempt left: its last error, else ENGINE_TIMEOUT. */
export function expiredWrite(task: TaskRecord, credits: number): TerminalWrite {
  const error = task.error ?? taskErrorString('ENGINE_TIMEOUT');
  return terminalWrite(task, { kind: 'failed', code: 'ENGINE_TIMEOUT', error, retryable: false }, credits);
}
