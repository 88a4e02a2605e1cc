import type { ServiceConfig } from '../config/engine-config.js';
import { RequestError, validationError, type FieldProblem } from '../domain/request-errors.js';
import { newTaskId } from '../domain/task-id.js';
import { clampPriority, type NewTask, type TaskPayload } from '../domain/task.js';
import {
  ENGINE_CATALOG,
  canonicalTaskType,
  engineRow,
  isAnalysisTaskType,
  type AddressMember,
  type EngineRow,
} from '../domain/engine-catalog.js';
import type { TaskType } from '../domain/task-types.js';
import type { Pools } from '../pools/pools.js';
import { checkEngineServes, checkSurfaceServes } from './engine-check.js';
import { checkRegion } from './region-check.js';

/** A submission envelope after schema validation (types and ranges already checked). */
export interface EnvelopeInput {
  taskType: string;
  payload: Record<string, unknown>;
  idempotencyKey?: string;
  priority?: number;
  webhook?: { url: string };
}

/** Keeps the known payload members only (unknown ones are ignored, docs/contract.md#unknown-members). */
function knownPayload(p: Record<string, unknown>, country: string | null): TaskPayload {
  const out: TaskPayload = {};
  for (const k of ['prompt', 'query', 'action', 'url', 'community', 'user'] as const) {
    const v = p[k];
    if (typeof v === 'string') out[k] = v;
  }
  if (typeof p.page === 'number') out.page = p.page;
  if (p.surface === 'api' || p.surface === 'app') out.surface = p.surface;
  if (country) out.country = country;
  const inc = p.include as Record<string, unknown> | undefined;
  if (inc && typeof inc === 'object') {
    const flags: NonNullable<TaskPayload['include']> = {};
    for (const f of ['markdown', 'rawResponse', 'html', 'artifacts'] as const)
      if (typeof inc[f] === 'boolean') flags[f] = inc[f] as boolean;
    out.include = flags;
  }
  return out;
}

function present(p: TaskPayload, m: AddressMember): boolean {
  return m === 'prompt' || m === 'query' ? !!p[m]?.trim() : !!p[m];
}

/**
 * Payload rules a JSON schema cannot say, read from the engine's catalog row: the action must be one
 * the engine takes, and the request must be addressed by what that action (or no action) needs.
 */
function payloadProblems(t: TaskType, row: EngineRow, p: TaskPayload): FieldProblem[] {
  // A surface the engine does not have is refused: answering from another one would not be what was asked.
  if (p.surface !== undefined && !row.surfaces?.includes(p.surface))
    return [{ field: 'payload.surface', message: `is not used by ${t} (it has one surface)` }];
  let rule = row.address;
  if (p.action !== undefined) {
    const allowed = Object.keys(row.actions);
    if (!Object.hasOwn(row.actions, p.action)) {
      const message = allowed.length > 0 ? `must be one of ${allowed.join(', ')}` : `is not used by ${t}`;
      return [{ field: 'payload.action', message }];
    }
    const forAction = row.actions[p.action];
    // null: the action needs nothing more (FORUM's `feed`).
    if (!forAction) return [];
    rule = forAction;
  }
  return rule.anyOf.some((m) => present(p, m)) ? [] : [{ ...rule.problem }];
}

export interface SubmissionContext {
  config: ServiceConfig;
  pools: Pools;
  now: () => number;
}

/**
 * Turns a schema-valid envelope into a task to insert: canonical type, dedicated-endpoint rule,
 * payload rules, clamped priority, region check. Throws RequestError for the client.
 */
export function envelopeToTask(input: EnvelopeInput, ctx: SubmissionContext, accountId: string): NewTask {
  const taskType = canonicalTaskType(input.taskType);
  if (!taskType)
    throw validationError([{ field: 'taskType', message: `unknown task type ${JSON.stringify(input.taskType)}` }]);
  if (isAnalysisTaskType(taskType)) {
    const { endpoint } = ENGINE_CATALOG[taskType];
    throw new RequestError('USE_DEDICATED_ENDPOINT', `${input.taskType} tasks are created only via ${endpoint}.`);
  }
  const row = engineRow(taskType);
  const rawCountry = typeof input.payload.country === 'string' ? input.payload.country.toUpperCase() : null;
  const country = rawCountry ?? row.defaultCountry;
  const payload = knownPayload(input.payload, country);
  const problems = payloadProblems(taskType, row, payload);
  if (problems.length > 0) throw validationError(problems);
  checkEngineServes(ctx.config.engines[taskType], taskType);
  if (payload.surface) checkSurfaceServes(ctx.config.engines[taskType], ctx.pools, taskType, payload.surface);
  if (country) checkRegion(ctx.config, ctx.pools, taskType, country, payload.surface ?? null);
  return buildTask(ctx, taskType, payload, {
    accountId,
    country,
    priority: input.priority,
    idempotencyKey: input.idempotencyKey,
    webhookUrl: input.webhook?.url,
  });
}

export function buildTask(
  ctx: SubmissionContext,
  taskType: TaskType,
  payload: unknown,
  o: {
    /** The account of the key that submits it. */
    accountId: string;
    country: string | null;
    priority?: number | undefined;
    idempotencyKey?: string | undefined;
    webhookUrl?: string | undefined;
  },
): NewTask {
  const engine = ctx.config.engines[taskType];
  const createdAt = ctx.now();
  return {
    id: newTaskId(createdAt),
    taskType,
    payload,
    priority: clampPriority(o.priority),
    idempotencyKey: o.idempotencyKey ?? null,
    webhookUrl: o.webhookUrl ?? null,
    country: o.country,
    maxAttempts: engine.maxAttempts,
    creditsToCharge: engine.credits,
    createdAt,
    accountId: o.accountId,
  };
}
