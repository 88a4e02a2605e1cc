import type { ServiceConfig } from '../config/engine-config.js';
import { RequestError, validationError, type FieldProblem } from '../domain/request-errors.js';
import { newTaskId } from '../domain/task-id.js';
import { clampPriority, type NewTask, type TaskPayload } from '../domain/task.js';
import { REGION_BOUND_ENGINES, canonicalTaskType, isAnalysisTaskType, type EngineTaskType, type TaskType } from '../domain/task-types.js';
import type { Pools } from '../pools/pools.js';
import { checkRegion } from './region-check.js';

/** A submission envelope after schema validation (types and ranges already checked). */
export interface EnvelopeInput {
  taskType: string;
  payload: Record<string, unknown>;
  idempotencyKey?: string;
  priority?: number;
  webhook?: { url: string };
}

const ACTIONS: Partial<Record<TaskType, readonly string[]>> = {
  FORUM: ['search', 'read', 'feed', 'user_posts'],
  SEARCH_B_SERP: ['search', 'page'],
};

/** Keeps the known payload members only (unknown ones are ignored, decisions.md item 5). */
function knownPayload(p: Record<string, unknown>, country: string | null): TaskPayload {
  const out: TaskPayload = {};
  for (const k of ['prompt', 'query', 'action', 'url', 'community', 'user'] as const) {
    const v = p[k];
    if (typeof v === 'string') out[k] = v;
  }
  if (typeof p.page === 'number') out.page = p.page;
  if (country) out.country = country;
  const inc = p.include as Record<string, unknown> | undefined;
  if (inc && typeof inc === 'object') {
    const flags: NonNullable<TaskPayload['include']> = {};
    for (const f of ['markdown', 'rawResponse', 'html'] as const) if (typeof inc[f] === 'boolean') flags[f] = inc[f] as boolean;
    out.include = flags;
  }
  return out;
}

/** Per-engine payload rules that a JSON schema cannot say: what addresses the request. */
function payloadProblems(t: EngineTaskType, p: TaskPayload): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const hasText = !!(p.prompt?.trim() || p.query?.trim());
  const allowed = ACTIONS[t];
  if (p.action !== undefined && !allowed?.includes(p.action)) {
    problems.push({ field: 'payload.action', message: allowed ? `must be one of ${allowed.join(', ')}` : `is not used by ${t}` });
    return problems;
  }
  switch (t) {
    case 'WEB_SCRAPE':
      if (!p.url) problems.push({ field: 'payload.url', message: 'is required for WEB_SCRAPE (the page to read)' });
      break;
    case 'FORUM':
      if (p.action === 'user_posts') {
        if (!p.user) problems.push({ field: 'payload.user', message: 'is required with action user_posts' });
      } else if (p.action === 'feed') {
        // Optional community; front page without one.
      } else if (p.action === 'read') {
        if (!p.url) problems.push({ field: 'payload.url', message: 'is required with action read' });
      } else if (!hasText && !p.url) {
        problems.push({ field: 'payload.prompt', message: 'payload.prompt or payload.query (or payload.url to read a post) is required' });
      }
      break;
    case 'SEARCH_B_SERP':
      if (p.action === 'page') {
        if (!p.url) problems.push({ field: 'payload.url', message: 'is required with action page' });
      } else if (!hasText) {
        problems.push({ field: 'payload.prompt', message: 'payload.prompt or payload.query is required' });
      }
      break;
    default:
      if (!hasText) problems.push({ field: 'payload.prompt', message: 'payload.prompt or payload.query is required' });
  }
  return problems;
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
export function envelopeToTask(input: EnvelopeInput, ctx: SubmissionContext): NewTask {
  const taskType = canonicalTaskType(input.taskType);
  if (!taskType) throw validationError([{ field: 'taskType', message: `unknown task type ${JSON.stringify(input.taskType)}` }]);
  if (isAnalysisTaskType(taskType)) {
    const endpoint = taskType === 'SOURCE_INFLUENCE' ? 'POST /v1/source-influence' : 'POST /v1/prompt-research';
    throw new RequestError('USE_DEDICATED_ENDPOINT', `${input.taskType} tasks are created only via ${endpoint}.`);
  }
  const rawCountry = typeof input.payload.country === 'string' ? input.payload.country.toUpperCase() : null;
  const country = rawCountry ?? (REGION_BOUND_ENGINES.has(taskType) ? 'US' : null);
  const payload = knownPayload(input.payload, country);
  const problems = payloadProblems(taskType, payload);
  if (problems.length > 0) throw validationError(problems);
  if (country) checkRegion(ctx.config, ctx.pools, taskType, country);
  return buildTask(ctx, taskType, payload, {
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
  o: { country: string | null; priority?: number | undefined; idempotencyKey?: string | undefined; webhookUrl?: string | undefined },
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
  };
}
