import { ACCEPTED_TASK_TYPE_NAMES, ALL_TASK_TYPES, ENGINE_CATALOG } from '../domain/engine-catalog.js';
import { UPSTREAM_FAILURE_KINDS } from '../domain/engine-errors.js';
import { SERVICE_FAILURE_CODES } from '../domain/task-failure.js';

/**
 * JSON schemas of the HTTP edge. Fastify validates bodies with them and @fastify/swagger builds
 * the OpenAPI document from the same objects, so the two cannot drift.
 * Unknown members are ignored (docs/contract.md#unknown-members): no `additionalProperties: false` on inputs.
 */
export const MAX_TEXT = 32_768;

/** `payload.page` spans every engine's pages (engine catalog); an engine without pages ignores it. */
const pageRanges = ALL_TASK_TYPES.flatMap((t) => {
  const row = ENGINE_CATALOG[t];
  return row.kind === 'engine' && row.pages ? [row.pages] : [];
});
const pageBounds = {
  minimum: Math.min(...pageRanges.map((r) => r.first)),
  maximum: Math.max(...pageRanges.map((r) => r.last)),
};

/** Spellings a prompt-research monitor accepts in `engines` (the PROMPT_RESEARCH row). */
const MONITOR_ENGINES = ENGINE_CATALOG.PROMPT_RESEARCH.monitors.engines;

const countryCode = {
  type: 'string',
  pattern: '^[A-Za-z]{2}$',
  description: 'ISO 3166-1 alpha-2, case-insensitive',
} as const;
const httpUrl = { type: 'string', minLength: 1, maxLength: 8192, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' } as const;

export const webhookSchema = {
  type: 'object',
  required: ['url'],
  properties: { url: { ...httpUrl, description: 'Receives a POST when the task is terminal' } },
} as const;

export const payloadSchema = {
  type: 'object',
  properties: {
    prompt: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    query: { type: 'string', minLength: 1, maxLength: MAX_TEXT },
    country: countryCode,
    page: { type: 'integer', ...pageBounds },
    action: { type: 'string', maxLength: 40 },
    url: httpUrl,
    community: { type: 'string', minLength: 1, maxLength: 100 },
    user: { type: 'string', minLength: 1, maxLength: 100 },
    include: {
      type: 'object',
      properties: { markdown: { type: 'boolean' }, rawResponse: { type: 'boolean' }, html: { type: 'boolean' } },
    },
  },
} as const;

export const envelopeSchema = {
  type: 'object',
  required: ['taskType', 'payload'],
  properties: {
    taskType: { type: 'string', enum: [...ACCEPTED_TASK_TYPE_NAMES] },
    payload: payloadSchema,
    idempotencyKey: { type: 'string', minLength: 1, maxLength: 255 },
    priority: { type: 'integer', description: '1..10, default 1; out-of-range values are clamped' },
    webhook: webhookSchema,
  },
} as const;

/**
 * The batch body as documented: 1 to 500 envelopes. The route itself checks only that the body is
 * an array; each item is validated on its own in the handler, so an invalid item fails alone.
 */
export const batchSchema = {
  type: 'array',
  description: '1 to 500 submission envelopes; each item is validated on its own and reported in results[]',
  items: envelopeSchema,
} as const;

export const citationSchema = {
  anyOf: [
    httpUrl,
    {
      type: 'object',
      required: ['url'],
      properties: {
        url: httpUrl,
        title: { type: 'string', maxLength: 2000 },
        snippet: { type: 'string', maxLength: 20_000 },
        position: { type: 'integer', minimum: 1, maximum: 1000 },
        label: { type: 'string', maxLength: 2000 },
      },
    },
  ],
} as const;

export const sourceInfluenceSchema = {
  type: 'object',
  required: ['answer', 'citations'],
  properties: {
    answer: { type: 'string', minLength: 1, maxLength: 200_000 },
    prompt: { type: 'string', maxLength: MAX_TEXT },
    citations: { type: 'array', maxItems: 25, items: citationSchema },
    analysis: {
      type: 'object',
      properties: {
        version: { type: 'integer', enum: [1] },
        entities: {
          type: 'array',
          maxItems: 50,
          items: {
            type: 'object',
            required: ['name'],
            properties: {
              id: { type: 'string', maxLength: 100 },
              name: { type: 'string', minLength: 1, maxLength: 200 },
              role: { type: 'string', maxLength: 40 },
            },
          },
        },
      },
    },
    idempotencyKey: { type: 'string', minLength: 1, maxLength: 255 },
    webhook: webhookSchema,
  },
} as const;

export const promptResearchSchema = {
  type: 'object',
  required: ['seed'],
  properties: {
    seed: { type: 'string', minLength: 1, maxLength: 200 },
    country: { type: 'string', maxLength: 10 },
    limit: { type: 'integer', minimum: 1, maximum: 50 },
    exclude: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 30 } },
    monitorSize: { type: 'integer', minimum: 1, maximum: 50 },
    engines: { type: 'array', minItems: 1, maxItems: 12, items: { type: 'string', enum: [...MONITOR_ENGINES] } },
    brand: { type: 'string', minLength: 1, maxLength: 80 },
    brandAliases: { type: 'array', maxItems: 10, items: { type: 'string', minLength: 1, maxLength: 80 } },
    brandDescription: { type: 'string', maxLength: 500 },
    idempotencyKey: { type: 'string', minLength: 1, maxLength: 255 },
    webhook: webhookSchema,
  },
} as const;

const errorObjectSchema = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    details: {},
    timestamp: { type: 'string', format: 'date-time' },
  },
} as const;

export const errorEnvelopeSchema = {
  type: 'object',
  properties: { success: { type: 'boolean', enum: [false] }, error: errorObjectSchema },
} as const;

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
export const taskFailureSchema = {
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
    response: { type: 'object', additionalProperties: true, description: 'Engine result; present when COMPLETED' },
    error: { type: 'string', description: '<CODE>: <sentence>; present when FAILED' },
    failure: taskFailureSchema,
  },
} as const;

/** A task in a listing: the polling view without `success`; `response` and `error` only with `include=result`. */
export const listedTaskSchema = {
  type: 'object',
  properties: {
    task: taskMetadataSchema,
    credits: creditsSchema,
    response: {
      type: 'object',
      additionalProperties: true,
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

/** The batch endpoint's query: where its one `batch.completed` delivery goes. */
export const batchSubmitQuerySchema = {
  type: 'object',
  properties: {
    webhook: {
      ...httpUrl,
      description:
        'Receives one POST (`batch.completed`, signed like task deliveries) when every task of the batch is terminal',
    },
  },
} as const;

export const batchResponseSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    batch: {
      type: ['object', 'null'],
      description: 'The batch object (GET /v1/async/batch/{id}); null only when the store refused the whole insert',
      properties: { id: { type: 'string', format: 'uuid' }, size: { type: 'integer' } },
    },
    summary: {
      type: 'object',
      properties: { total: { type: 'integer' }, succeeded: { type: 'integer' }, failed: { type: 'integer' } },
    },
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          success: { type: 'boolean' },
          index: { type: 'integer' },
          task: taskMetadataSchema,
          credits: creditsSchema,
          error: errorObjectSchema,
        },
      },
    },
  },
} as const;

const isoOrNull = { type: ['string', 'null'], format: 'date-time' } as const;

const statusCountsSchema = {
  type: 'object',
  properties: Object.fromEntries(
    ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'].map((s) => [s, { type: 'integer' }]),
  ) as Record<'QUEUED' | 'PROCESSING' | 'COMPLETED' | 'FAILED', { type: 'integer' }>,
} as const;

/** A batch's progress (GET /v1/async/batch/{id}; the `batch` of its `batch.completed` delivery). */
export const batchViewSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    size: { type: 'integer', description: 'items submitted' },
    total: { type: 'integer', description: 'items accepted as tasks' },
    rejected: { type: 'integer', description: 'items that failed at submission (no task)' },
    done: { type: 'integer', description: 'tasks COMPLETED or FAILED' },
    counts: statusCountsSchema,
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { ...isoOrNull, description: 'the latest change to any of its tasks' },
    completedAt: { ...isoOrNull, description: 'when every task was found terminal; null before' },
  },
} as const;

export const batchQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 100, description: 'items per page' },
    cursor: { type: 'string', pattern: '^[0-9]{1,4}$', description: '`nextCursor` of the previous page' },
    include: { type: 'string', enum: ['request'], description: '`request`: each item with what it asked (`payload`)' },
  },
} as const;

export const batchListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'batches per page' },
    cursor: {
      type: 'string',
      pattern: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$',
      description: '`nextCursor` of the previous page',
    },
  },
} as const;

export const batchListSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    batches: { type: 'array', items: batchViewSchema, description: 'newest first' },
    nextCursor: { type: ['string', 'null'], description: 'pass as `cursor` for the next page; null on the last' },
  },
} as const;

export const batchStatusSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    batch: {
      ...batchViewSchema,
      properties: {
        ...batchViewSchema.properties,
        webhook: {
          type: ['object', 'null'],
          properties: { targetHost: { type: 'string' } },
          description: 'where batch.completed goes (host only); null without one',
        },
      },
    },
    items: {
      type: 'array',
      description: 'the accepted items in submission order, one page',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer', description: 'the item index in the submitted array' },
          taskId: { type: 'string', format: 'uuid' },
          status: { type: 'string', enum: ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'] },
          taskType: { type: 'string', description: 'the engine (canonical task type)' },
          country: { type: ['string', 'null'], description: 'the region it is served from' },
          request: {
            type: 'object',
            properties: { payload: { type: 'object', additionalProperties: true } },
            description: 'What was asked: the `payload` as submitted; with include=request',
          },
        },
      },
    },
    nextCursor: { type: ['string', 'null'], description: 'pass as `cursor` for the next page; null on the last' },
  },
} as const;

/** The webhook delivery log of a task (GET /v1/async/task/{id}/deliveries). */
export const deliveryLogSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    taskId: { type: 'string' },
    webhook: {
      type: ['object', 'null'],
      description: 'null when the task was submitted without a webhook',
      properties: {
        targetHost: { type: 'string', description: 'host[:port] of the webhook URL (no path, query or credentials)' },
        status: { type: 'string', enum: ['pending', 'sending', 'delivered', 'abandoned'] },
        redeliveries: { type: 'integer' },
        nextAttemptAt: isoOrNull,
        attempts: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              delivery: { type: 'integer' },
              attempt: { type: 'integer' },
              at: { type: 'string', format: 'date-time' },
              latencyMs: { type: ['integer', 'null'] },
              outcome: { type: 'string', enum: ['delivered', 'retry', 'abandoned', 'undeliverable', 'in_flight'] },
              httpStatus: { type: ['integer', 'null'] },
              errorCode: { type: ['string', 'null'] },
              nextAttemptAt: isoOrNull,
            },
          },
        },
      },
    },
  },
} as const;

/** The webhook delivery log of a batch (its one batch.completed delivery and any redeliveries). */
export const batchDeliveryLogSchema = {
  type: 'object',
  properties: {
    success: deliveryLogSchema.properties.success,
    batchId: { type: 'string' },
    webhook: { ...deliveryLogSchema.properties.webhook, description: 'null when the batch was submitted without one' },
  },
} as const;

const isoDate = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD (UTC)' } as const;

export const usageQuerySchema = {
  type: 'object',
  properties: {
    from: { ...isoDate, description: 'first day, included (default: 29 days before `to`)' },
    to: { ...isoDate, description: 'last day, included (default: today, UTC)' },
  },
} as const;

/** GET /v1/usage: the caller's account, by UTC day (of each task's finish) and engine. */
export const usageSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    from: { type: 'string', format: 'date' },
    to: { type: 'string', format: 'date' },
    usage: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          day: { type: 'string', format: 'date' },
          engine: { type: 'string' },
          tasks: { type: 'integer', description: 'tasks that finished (COMPLETED or FAILED) that day' },
          credits: { type: 'integer', description: 'credits charged for them (0 for a failed task)' },
        },
      },
    },
    totals: { type: 'object', properties: { tasks: { type: 'integer' }, credits: { type: 'integer' } } },
  },
} as const;

export const idParamsSchema = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 200 } },
} as const;
