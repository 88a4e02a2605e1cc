import { EXPORT_FORMATS } from '../../export/encoders.js';

const dateTime = { type: 'string', format: 'date-time', maxLength: 40 } as const;

/** `GET /v1/export` (docs/exports.md). */
export const exportQuerySchema = {
  type: 'object',
  required: ['since'],
  additionalProperties: false,
  properties: {
    since: {
      ...dateTime,
      description:
        'tasks created at or after this time (RFC 3339); a time before the 24-hour retention reads as its start',
    },
    until: { ...dateTime, description: 'tasks created before this time (RFC 3339); after `since`' },
    format: {
      type: 'string',
      enum: [...EXPORT_FORMATS],
      default: 'jsonl',
      description: 'jsonl (one JSON object a line), csv (formula-escaped) or parquet; the same columns in each',
    },
    monitor: {
      type: 'string',
      maxLength: 64,
      description:
        "a monitor's id: export its completed runs scheduled in the window instead of tasks, one row per saved " +
        'answer with its group’s figures (docs/exports.md#monitor-columns)',
    },
    after: {
      type: 'string',
      maxLength: 36,
      description:
        'resume after this task_id (a monitor export: this run_id), the last row a broken download kept: the rest ' +
        'of the window follows',
    },
    status: { type: 'string', enum: ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'], description: 'only this status' },
    engine: { type: 'string', minLength: 1, maxLength: 64, description: 'only tasks of this task type' },
  },
} as const;
