import { exportQuerySchema } from '../http/schemas/export.js';
import { idParamsSchema } from '../http/schemas/common.js';
import { monitorCreateSchema, monitorListQuerySchema, monitorMetricsQuerySchema } from '../http/schemas/monitors.js';
import { envelopeSchema, promptResearchSchema, sourceInfluenceSchema } from '../http/schemas/submission.js';
import { taskListQuerySchema } from '../http/schemas/tasks.js';

/**
 * The tools' input schemas, built from the very JSON schemas that validate the HTTP API's requests
 * (src/http/schemas), so a tool takes exactly what the endpoint behind it takes and the two cannot drift. Only what
 * a tool adds is written here: the wait budget, the id of a path, and the batch's bound.
 */

/** How long a waiting tool waits by default, and at most: an assistant's tool call must come back. */
export const BUDGET_DEFAULT_SECONDS = 60;
const BUDGET_MAX_SECONDS = 300;

/** The contract's batch bound: one tool call is one batch. */
const BATCH_MAX_ITEMS = 500;

const budgetSeconds = {
  type: 'integer',
  minimum: 1,
  maximum: BUDGET_MAX_SECONDS,
  default: BUDGET_DEFAULT_SECONDS,
  description:
    `How long to wait for the result, in seconds (1 to ${BUDGET_MAX_SECONDS}, default ${BUDGET_DEFAULT_SECONDS}). ` +
    'When it runs out the tool returns the task id and its status instead (done: false); call wait_for_task with ' +
    'that id to wait again. Nothing is lost: the task goes on running.',
} as const;

const taskId = {
  ...idParamsSchema.properties.id,
  minLength: 1,
  description: 'The task id (a UUID) that ask, submit_batch, prompt_research or source_influence returned',
} as const;

const monitorId = {
  ...idParamsSchema.properties.id,
  minLength: 1,
  description: 'The monitor id (a UUID) that create_monitor or list_monitors returned',
} as const;

type Properties = Record<string, unknown>;

/** The properties without the webhook: an assistant reads results through the tools, not a receiver of its own. */
function withoutWebhook<P extends Properties>(properties: P): Omit<P, 'webhook'> {
  const { webhook: _webhook, ...rest } = properties;
  return rest;
}

export const askInput = {
  type: 'object',
  required: ['taskType', 'payload'],
  properties: { ...withoutWebhook(envelopeSchema.properties), budgetSeconds },
} as const;

export const submitBatchInput = {
  type: 'object',
  required: ['tasks'],
  properties: {
    tasks: {
      type: 'array',
      minItems: 1,
      maxItems: BATCH_MAX_ITEMS,
      items: { ...envelopeSchema, properties: withoutWebhook(envelopeSchema.properties) },
      description: `1 to ${BATCH_MAX_ITEMS} tasks, each {taskType, payload}; each is accepted or refused on its own`,
    },
  },
} as const;

export const taskIdInput = {
  type: 'object',
  required: ['id'],
  properties: { id: taskId },
} as const;

export const waitInput = {
  type: 'object',
  required: ['id'],
  properties: { id: taskId, budgetSeconds },
} as const;

/** The listing's query, `since` optional: an assistant rarely knows the time, so it defaults to the retention. */
export const listTasksInput = {
  type: 'object',
  properties: {
    ...taskListQuerySchema.properties,
    since: {
      ...taskListQuerySchema.properties.since,
      description: `${taskListQuerySchema.properties.since.description}. Default: 24 hours ago (every kept task)`,
    },
  },
} as const;

/**
 * `export_tasks`: the flat rows of GET /v1/export (docs/exports.md) for a window, as JSON; a model reads at most
 * `maxRows` and is pointed at the bulk endpoint for more.
 */
export const exportTasksInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    since: {
      ...exportQuerySchema.properties.since,
      description: `${exportQuerySchema.properties.since.description}. Default: 24 hours ago (every kept task)`,
    },
    until: exportQuerySchema.properties.until,
    after: exportQuerySchema.properties.after,
    status: exportQuerySchema.properties.status,
    engine: exportQuerySchema.properties.engine,
    maxRows: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 200,
      description: 'rows to return at most (1 to 1,000); for more, pass nextAfter as after, or use GET /v1/export',
    },
  },
} as const;

export const promptResearchInput = {
  type: 'object',
  required: promptResearchSchema.required,
  properties: { ...withoutWebhook(promptResearchSchema.properties), budgetSeconds },
} as const;

export const sourceInfluenceInput = {
  type: 'object',
  required: sourceInfluenceSchema.required,
  properties: { ...withoutWebhook(sourceInfluenceSchema.properties), budgetSeconds },
} as const;

export const createMonitorInput = monitorCreateSchema;

export const listMonitorsInput = monitorListQuerySchema;

export const monitorIdInput = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: monitorId },
} as const;

export const monitorRangeInput = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: monitorId, ...monitorMetricsQuerySchema.properties },
} as const;
