import type { ClaimedTask, PolledTask, TaskRecord, TaskStatus } from '../domain/task.js';
import type { TaskType } from '../domain/task-types.js';
import { parseTaskFailure } from '../domain/task-failure.js';
import type { TasksTable } from './schema.js';

/**
 * A task's columns as reads return them: all but the batch's, which only batch reads look at, and the artefacts' list,
 * which only the artefacts' read looks at.
 */
export type TaskRow = Omit<TasksTable, 'batch_id' | 'batch_index' | 'artifacts'>;

/** Row <-> domain mapping, in one place. PostgreSQL returns bigint columns as strings: Number() them. */
export function taskFromRow(r: TaskRow): TaskRecord {
  return {
    id: r.id,
    taskType: r.task_type as TaskType,
    status: r.status as TaskStatus,
    priority: Number(r.priority),
    payload: JSON.parse(r.payload) as unknown,
    idempotencyKey: r.idempotency_key,
    webhookUrl: r.webhook_url,
    country: r.country,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    result: r.result === null ? undefined : (JSON.parse(r.result) as unknown),
    error: r.error,
    failure: parseTaskFailure(r.failure),
    creditsToCharge: Number(r.credits_to_charge),
    creditsCharged: r.credits_charged === null ? null : Number(r.credits_charged),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
    accountId: r.account_id,
  };
}

/** The columns a poll reads, in this order (the embedded store reads them as an array). */
export const POLL_COLUMNS = [
  'id',
  'task_type',
  'status',
  'priority',
  'created_at',
  'idempotency_key',
  'result',
  'error',
  'credits_to_charge',
  'credits_charged',
  'account_id',
  'failure',
] as const;

type PollColumn = (typeof POLL_COLUMNS)[number];
/** One poll row as values, in the order of POLL_COLUMNS. */
export type PollValues = [
  id: string,
  taskType: string,
  status: string,
  priority: number,
  createdAt: number,
  idempotencyKey: string | null,
  result: string | null,
  error: string | null,
  creditsToCharge: number,
  creditsCharged: number | null,
  accountId: string,
  failure: string | null,
];

export function polledFromValues(v: PollValues): PolledTask {
  const [
    id,
    taskType,
    status,
    priority,
    createdAt,
    idempotencyKey,
    result,
    error,
    creditsToCharge,
    creditsCharged,
    accountId,
    failure,
  ] = v;
  return {
    id,
    taskType: taskType as TaskType,
    status: status as TaskStatus,
    priority: Number(priority),
    createdAt: Number(createdAt),
    idempotencyKey,
    resultJson: result,
    error,
    creditsToCharge: Number(creditsToCharge),
    creditsCharged: creditsCharged === null ? null : Number(creditsCharged),
    accountId,
    failure: parseTaskFailure(failure),
  };
}

export function polledFromRow(r: Pick<TasksTable, PollColumn>): PolledTask {
  return polledFromValues(POLL_COLUMNS.map((c) => r[c]) as unknown as PollValues);
}

/** The columns a claim returns, in this order (both stores' claims; PostgreSQL's as arrays). */
export const CLAIM_COLUMNS = [
  'id',
  'task_type',
  'priority',
  'payload',
  'idempotency_key',
  'webhook_url',
  'country',
  'created_at',
  'attempts',
  'max_attempts',
  'credits_to_charge',
  'account_id',
] as const;

/** One claimed row as values, in the order of CLAIM_COLUMNS (bigint columns as PostgreSQL's text, or numbers). */
export type ClaimValues = [
  id: string,
  taskType: string,
  priority: number,
  payload: string,
  idempotencyKey: string | null,
  webhookUrl: string | null,
  country: string | null,
  createdAt: number | string,
  attempts: number,
  maxAttempts: number,
  creditsToCharge: number,
  accountId: string,
];

/** A claimed task from its values and the lease the claim wrote (the caller's own token and expiry). */
export function claimedFromValues(v: ClaimValues, leaseToken: string, leaseExpiresAt: number): ClaimedTask {
  const [
    id,
    taskType,
    priority,
    payload,
    idempotencyKey,
    webhookUrl,
    country,
    createdAt,
    attempts,
    maxAttempts,
    creditsToCharge,
    accountId,
  ] = v;
  return {
    id,
    taskType: taskType as TaskType,
    payload: JSON.parse(payload) as unknown,
    priority: Number(priority),
    idempotencyKey,
    webhookUrl,
    country,
    createdAt: Number(createdAt),
    attempts: Number(attempts),
    maxAttempts: Number(maxAttempts),
    creditsToCharge: Number(creditsToCharge),
    accountId,
    leaseToken,
    leaseExpiresAt,
  };
}
