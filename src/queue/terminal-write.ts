import type { StoredArtifact } from '../domain/artifact.js';
import { taskErrorString } from '../domain/engine-errors.js';
import { serviceFailure } from '../domain/task-failure.js';
import type { ClaimedTask, TaskRecord } from '../domain/task.js';
import { webhookPayload } from '../domain/task-view.js';
import type { TerminalWrite } from '../store/ports.js';
import type { AttemptOutcome } from './attempt-runner.js';

/**
 * The terminal row for an attempt's outcome, with its webhook delivery when the task asked for one, and the artefacts
 * whose files the attempt wrote.
 */
export function terminalWrite(
  task: Pick<ClaimedTask, 'id' | 'taskType' | 'priority' | 'createdAt' | 'idempotencyKey' | 'webhookUrl' | 'accountId'>,
  outcome: AttemptOutcome,
  credits: number,
  artifacts: StoredArtifact[] = [],
): TerminalWrite {
  const base =
    outcome.kind === 'completed'
      ? {
          status: 'COMPLETED' as const,
          result: outcome.response,
          error: null,
          failure: null,
          creditsToCharge: outcome.credits ?? credits,
          creditsCharged: outcome.credits ?? credits,
        }
      : {
          status: 'FAILED' as const,
          result: undefined,
          error: outcome.error,
          failure: outcome.failure,
          creditsToCharge: credits,
          creditsCharged: 0,
        };
  const webhook = task.webhookUrl
    ? { url: task.webhookUrl, payload: webhookPayload(task, base), accountId: task.accountId }
    : null;
  return artifacts.length > 0 ? { ...base, webhook, artifacts } : { ...base, webhook };
}

/**
 * The terminal row of a task whose lease expired with no attempt left: its last error and failure when an attempt
 * recorded one, else ENGINE_TIMEOUT, and a failure that says the worker running it stopped or lost its lease.
 */
export function expiredWrite(task: TaskRecord, credits: number): TerminalWrite {
  const error = task.error ?? taskErrorString('ENGINE_TIMEOUT');
  const failure =
    task.failure ??
    serviceFailure(
      'WORKER_LOST',
      'The worker running the last attempt stopped or lost its lease before the attempt ended.',
      { attempts: task.attempts },
    );
  return terminalWrite(task, { kind: 'failed', code: 'ENGINE_TIMEOUT', error, retryable: false, failure }, credits);
}
