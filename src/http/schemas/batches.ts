import { errorObjectSchema, httpUrl, isoOrNull } from './common.js';
import { creditsSchema, taskMetadataSchema } from './tasks.js';

/** The batch routes: the submission's query and answer, a batch's progress and items, the account's batches. */
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

const statusCountsSchema = {
  type: 'object',
  properties: Object.fromEntries(
    ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'].map((s) => [s, { type: 'integer' }]),
  ) as Record<'QUEUED' | 'PROCESSING' | 'COMPLETED' | 'FAILED', { type: 'integer' }>,
} as const;

/** A batch's progress (GET /v1/async/batch/{id}; the `batch` of its `batch.completed` delivery). */
const batchViewSchema = {
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
