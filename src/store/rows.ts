import type { ClaimedTask, TaskRecord, TaskStatus } from '../domain/task.js';
import type { TaskType } from '../domain/task-types.js';
import type { TasksTable } from './schema.js';

/** Row <-> domain mapping, in one place. PostgreSQL returns bigint columns as strings: Number() them. */
export function taskFromRow(r: TasksTable): TaskRecord {
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
    creditsToCharge: Number(r.credits_to_charge),
    creditsCharged: r.credits_charged === null ? null : Number(r.credits_charged),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
  };
}

export function claimedFromRow(r: TasksTable): ClaimedTask {
  return { ...taskFromRow(r), leaseToken: r.lease_token ?? '', leaseExpiresAt: Number(r.lease_expires_at) };
}
