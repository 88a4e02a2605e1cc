import { isoOrNull } from './common.js';

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
