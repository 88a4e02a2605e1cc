import { ACCEPTED_TASK_TYPE_NAMES, ALL_TASK_TYPES, ENGINE_CATALOG, SURFACES } from '../../domain/engine-catalog.js';
import { httpUrl } from './common.js';

/**
 * What a client submits: the task envelope, a batch of them, and the bodies of the two analysis endpoints.
 * Unknown members are ignored (docs/contract.md#unknown-members): no `additionalProperties: false` on inputs.
 */
const MAX_TEXT = 32_768;

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

const webhookSchema = {
  type: 'object',
  required: ['url'],
  properties: { url: { ...httpUrl, description: 'Receives a POST when the task is terminal' } },
} as const;

const payloadSchema = {
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
      properties: {
        markdown: { type: 'boolean' },
        rawResponse: { type: 'boolean' },
        html: { type: 'boolean' },
        artifacts: {
          type: 'boolean',
          description: 'Keep the evidence (raw payload; page HTML and screenshot in browser modes) for the retention',
        },
      },
    },
    surface: {
      type: 'string',
      enum: [...SURFACES],
      description:
        'engines with an API and an app (CHATBOT_A, ANSWER_ENGINE_A): which one answers; ' +
        "default: the engine's configured transport",
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

const citationSchema = {
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
