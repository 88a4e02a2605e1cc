/** GET /v1/usage: the query (a range of UTC days) and the answer. */
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
