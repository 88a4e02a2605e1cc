import { UPSTREAM_FAILURE_KINDS } from '../../domain/engine-errors.js';
import { SERVICE_FAILURE_CODES } from '../../domain/task-failure.js';
import { taskResponseSchema } from './task-response.js';

/** What the task routes answer: a task's metadata, its polling view, what it asked, and the account's listing. */
export const taskMetadataSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    taskType: { type: 'string' },
    status: { type: 'string', enum: ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'] },
    priority: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
    idempotencyKey: { type: 'string' },
  },
} as const;

export const creditsSchema = {
  type: 'object',
  properties: { creditsToCharge: { type: 'integer' }, creditsCharged: { type: ['integer', 'null'] } },
} as const;

export const acceptedSchema = {
  type: 'object',
  properties: { success: { type: 'boolean' }, task: taskMetadataSchema, credits: creditsSchema },
} as const;

/** Why a FAILED task's last attempt failed (src/domain/task-failure.ts), beside the fixed `error` string. */
const taskFailureSchema = {
  type: 'object',
  description:
    'Why the last attempt failed; present when FAILED (absent on tasks that failed before aeq recorded reasons). ' +
    "The contract's `error` string stays fixed; branch on this `code` for the reason.",
  required: ['code', 'origin', 'message', 'upstreamHost', 'attempts'],
  properties: {
    code: {
      type: 'string',
      enum: [...UPSTREAM_FAILURE_KINDS, ...SERVICE_FAILURE_CODES],
      description: 'what ended the last attempt: a kind of upstream failure, or one of aeq (the last five)',
    },
    origin: {
      type: 'string',
      enum: ['upstream', 'aeq'],
      description: "whose side failed: the engine's upstream (or the way to it), or aeq itself",
    },
    message: { type: 'string', description: 'one sentence for a reader; no URL path or query, credential or body' },
    upstreamHost: {
      type: ['string', 'null'],
      description: 'host[:port] the attempt talked to; null when it never reached one',
    },
    attempts: { type: 'integer', description: 'attempts made, the last included' },
  },
} as const;

export const pollingSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    task: taskMetadataSchema,
    credits: creditsSchema,
    response: {
      ...taskResponseSchema,
      description:
        'Engine result; present when COMPLETED. A SOURCE_INFLUENCE task answers with a SourceInfluenceResult, a ' +
        'PROMPT_RESEARCH task with a PromptResearchResult, any other engine with its answer (text, markdown, sources)',
    },
    error: { type: 'string', description: '<CODE>: <sentence>; present when FAILED' },
    failure: taskFailureSchema,
  },
} as const;

/** A task in a listing: the polling view without `success`; `response` and `error` only with `include=result`. */
const listedTaskSchema = {
  type: 'object',
  properties: {
    task: taskMetadataSchema,
    credits: creditsSchema,
    response: {
      ...taskResponseSchema,
      description: 'Engine result, as polling shows it; with include=result, when COMPLETED',
    },
    error: { type: 'string', description: '<CODE>: <sentence>, as polling shows it; with include=result, when FAILED' },
    failure: { ...taskFailureSchema, description: 'as polling shows it; with include=result, when FAILED' },
    request: {
      type: 'object',
      properties: {
        payload: { type: 'object', additionalProperties: true },
        country: { type: ['string', 'null'], description: 'the region it is served from' },
      },
      description: 'What was asked: the `payload` as submitted, and its region; with include=request',
    },
  },
} as const;

/** GET /v1/async/task/{id}/request: what a task asked, beside its metadata. */
export const taskRequestSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    task: taskMetadataSchema,
    request: {
      type: 'object',
      properties: {
        payload: { type: 'object', additionalProperties: true, description: 'as submitted' },
        country: { type: ['string', 'null'], description: 'the region it is served from' },
        webhook: {
          type: ['object', 'null'],
          properties: { targetHost: { type: 'string' } },
          description: 'where its webhook goes (host only); null without one',
        },
        attempts: { type: 'integer', description: 'attempts made so far' },
        maxAttempts: { type: 'integer' },
        updatedAt: { type: 'string', format: 'date-time' },
        finishedAt: { type: ['string', 'null'], format: 'date-time' },
      },
    },
  },
} as const;

const dateTime = { type: 'string', format: 'date-time' } as const;

/** GET /v1/async/tasks: the caller's account's tasks by creation time, a page at a time. */
export const taskListQuerySchema = {
  type: 'object',
  required: ['since'],
  properties: {
    since: {
      ...dateTime,
      description:
        'tasks created at or after this time (RFC 3339, e.g. 2026-11-20T10:00:00Z; URL-encode a + offset as %2B). ' +
        'A time before the 24-hour retention reads as its start: older tasks are no longer kept',
    },
    until: { ...dateTime, description: 'tasks created before this time (RFC 3339); after `since`' },
    status: { type: 'string', enum: ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'], description: 'only this status' },
    engine: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'only tasks of this task type (canonical name or alias, e.g. CHATBOT_A or PROMPT_RESEARCH)',
    },
    order: {
      type: 'string',
      enum: ['asc', 'desc'],
      default: 'asc',
      description: '`asc`: oldest first (the default); `desc`: newest first',
    },
    q: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        'only tasks whose request text (`prompt`, `query`, `url`, `community` or `seed`) contains this text, ' +
        'ignoring case (ASCII letters only on the embedded store)',
    },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 100, description: 'tasks per page' },
    cursor: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]{1,200}$',
      description: '`nextCursor` of the previous page (of the same query)',
    },
    include: {
      type: 'string',
      enum: ['result', 'request', 'result,request', 'request,result'],
      description:
        '`result`: each COMPLETED task with its `response`, each FAILED task with its `error`; `request`: each ' +
        'task with its `request` (`payload` as submitted); both, comma-separated',
    },
  },
} as const;

export const taskListSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    tasks: {
      type: 'array',
      description: 'one page of the tasks, oldest first (in creation order, the order of their ids)',
      items: listedTaskSchema,
    },
    nextCursor: { type: ['string', 'null'], description: 'pass as `cursor` for the next page; null on the last' },
  },
} as const;
