import { SIGNAL_FIGURES } from '../../analysis/visibility/signals.js';
import { ENGINE_CATALOG } from '../../domain/engine-catalog.js';
import { httpUrl } from './common.js';
import { MAX_SAMPLES, MAX_TASKS_PER_RUN } from '../../domain/monitor.js';

/** JSON schemas of the monitor routes (validation and the OpenAPI document, as for every route). */

/** Spellings a monitor accepts in `engines`: those of prompt research's monitor sets. */
const MONITOR_ENGINES = ENGINE_CATALOG.PROMPT_RESEARCH.monitors.engines;

const brandSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 80 },
    aliases: { type: 'array', maxItems: 10, items: { type: 'string', minLength: 1, maxLength: 80 } },
    domains: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 253 } },
  },
} as const;

/** `POST /v1/monitors/{id}/competitors`: one brand, as in `competitors`. */
export const competitorBodySchema = brandSchema;

const scheduleSchema = {
  type: 'object',
  required: ['cron'],
  additionalProperties: false,
  properties: {
    cron: { type: 'string', minLength: 1, maxLength: 120 },
    timezone: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;

const specProperties = {
  name: { type: 'string', minLength: 1, maxLength: 120 },
  prompts: {
    type: 'array',
    minItems: 1,
    maxItems: MAX_TASKS_PER_RUN,
    items: { type: 'string', minLength: 1, maxLength: 1000 },
  },
  promptResearchTaskId: { type: 'string', maxLength: 200 },
  engines: { type: 'array', minItems: 1, maxItems: 12, items: { type: 'string', enum: [...MONITOR_ENGINES] } },
  countries: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', pattern: '^[A-Za-z]{2}$' } },
  brand: brandSchema,
  competitors: { type: 'array', maxItems: 20, items: brandSchema },
  schedule: scheduleSchema,
  webhook: {
    type: ['object', 'null'],
    required: ['url'],
    additionalProperties: false,
    properties: { url: httpUrl },
    description:
      'Receives a signed POST after a run that raised new signals (docs/contract.md); null on an edit removes it',
  },
  samples: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_SAMPLES,
    description:
      'Times each prompt is asked per engine and country in a run (default 1), spread over the run ' +
      '(AEQ_MONITOR_SAMPLE_SPACING_SECONDS apart). prompts × engines × samples is at most 200.',
  },
} as const;

export const monitorCreateSchema = {
  type: 'object',
  required: ['name', 'engines', 'brand'],
  additionalProperties: false,
  properties: specProperties,
} as const;

export const monitorPatchSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { ...specProperties, status: { type: 'string', enum: ['active', 'paused'] } },
} as const;

const brandViewSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    aliases: { type: 'array', items: { type: 'string' } },
    domains: { type: 'array', items: { type: 'string' } },
  },
} as const;

const monitorViewSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['active', 'paused'] },
    prompts: { type: 'array', items: { type: 'string' } },
    promptResearchTaskId: { type: ['string', 'null'] },
    engines: { type: 'array', items: { type: 'string' } },
    countries: { type: 'array', items: { type: 'string' } },
    brand: brandViewSchema,
    competitors: { type: 'array', items: brandViewSchema },
    schedule: {
      type: 'object',
      properties: {
        cron: { type: 'string' },
        timezone: { type: 'string' },
        nextRunAt: { type: ['string', 'null'], format: 'date-time' },
      },
    },
    samples: { type: 'integer' },
    webhook: {
      type: ['object', 'null'],
      description: 'The webhook host (the URL is not shown: it may carry a token)',
      properties: { targetHost: { type: 'string' } },
    },
    tasksPerRun: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
} as const;

export const monitorAnswerSchema = {
  type: 'object',
  properties: { success: { type: 'boolean' }, monitor: monitorViewSchema },
} as const;

export const monitorListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
    cursor: { type: 'string', maxLength: 200 },
  },
} as const;

export const monitorListSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    monitors: { type: 'array', items: monitorViewSchema },
    nextCursor: { type: ['string', 'null'] },
  },
} as const;

const looseObject = { type: 'object', additionalProperties: true } as const;

/** A 95% interval (docs/analysis.md §6.6); null where the figure is null or rests on too little. */
const intervalSchema = {
  type: ['object', 'null'],
  properties: { low: { type: 'number' }, high: { type: 'number' } },
} as const;

export const monitorRunsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    include: { type: 'string', enum: ['results'] },
  },
} as const;

/** One task's saved outcome in a run, and where its answer names the tracked brands (docs/analysis.md §6.1). */
const runResultSchema = {
  type: 'object',
  additionalProperties: true,
  properties: {
    taskId: { type: 'string' },
    prompt: { type: 'string' },
    engine: { type: 'string' },
    country: { type: ['string', 'null'] },
    status: { type: 'string', enum: ['COMPLETED', 'FAILED'] },
    text: { type: 'string' },
    sources: { type: 'array', items: { type: 'string' }, description: 'cited URLs, in order' },
    error: { type: ['string', 'null'] },
    searchQueries: {
      type: 'array',
      items: { type: 'string' },
      description:
        'the searches the engine ran; absent where the engine does not say (docs/contract.md#answer-signals)',
    },
    searchTriggered: { type: 'boolean', description: 'whether the engine searched; absent where it does not say' },
    retrieved: {
      type: 'array',
      items: { type: 'string' },
      description: 'URLs the engine read but did not cite; absent where it does not list them',
    },
    mentions: {
      type: 'array',
      description: 'where `text` names a tracked brand, as the figures counted it: UTF-16 offsets',
      items: {
        type: 'object',
        properties: {
          start: { type: 'integer' },
          end: { type: 'integer' },
          brand: { type: 'string' },
          role: { type: 'string', enum: ['brand', 'competitor'] },
        },
      },
    },
    position: { type: ['integer', 'null'], description: "the brand's rank by first mention; null when not named" },
  },
} as const;

/** A run with its progress (`slotAt`: its scheduled time, or when it was started by hand). */
const runSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    slotAt: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['starting', 'running', 'completed'] },
    trigger: { type: 'string', enum: ['schedule', 'manual'] },
    batchId: { type: 'string', description: "the batch of the run's tasks (GET /v1/async/batch/{id})" },
    tasks: { type: 'integer' },
    progress: looseObject,
    createdAt: { type: 'string', format: 'date-time' },
    completedAt: { type: ['string', 'null'], format: 'date-time' },
    results: { type: 'array', items: runResultSchema },
  },
} as const;

export const monitorRunsSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    runs: { type: 'array', items: runSchema },
  },
} as const;

/** `POST /v1/monitors/{id}/runs`: the run just started. */
export const monitorRunStartedSchema = {
  type: 'object',
  properties: { success: { type: 'boolean' }, run: runSchema },
} as const;

export const monitorMetricsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: { type: 'string', maxLength: 40, description: 'RFC 3339 date-time: runs scheduled at or after it' },
    to: { type: 'string', maxLength: 40, description: 'RFC 3339 date-time: runs scheduled before it' },
  },
} as const;

export const monitorMetricsSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    monitorId: { type: 'string' },
    series: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          runId: { type: 'string' },
          slotAt: { type: 'string', format: 'date-time' },
          engine: { type: 'string' },
          country: { type: ['string', 'null'] },
          mentionRate: { type: ['number', 'null'] },
          avgFirstMentionPosition: { type: ['number', 'null'] },
          avgFirstMentionOffset: { type: ['number', 'null'] },
          shareOfVoice: { type: ['number', 'null'] },
          ownCitationShare: { type: ['number', 'null'] },
          searchRate: {
            type: ['number', 'null'],
            description:
              'Answers that searched the web over the answers whose engine says whether it searched; null when no ' +
              'engine of the point says, and absent from runs saved before visibility/1.3.0 (docs/analysis.md §6.9)',
          },
          intervals: {
            description:
              "95% intervals of the brand's figures: Wilson on the effective sample for proportions, a bootstrap " +
              'over prompts for share of voice and position (docs/analysis.md §6.6). Null for runs saved before ' +
              'intervals were kept (methodVersion before visibility/1.2.0).',
            type: ['object', 'null'],
            properties: {
              level: { type: 'number' },
              mentionRate: intervalSchema,
              shareOfVoice: intervalSchema,
              avgFirstMentionPosition: intervalSchema,
              ownCitationShare: intervalSchema,
              searchRate: intervalSchema,
            },
          },
          topCitedDomains: {
            type: 'array',
            description:
              'Per cited domain: citations, share of all citations, answers citing it, `citationRate` (answers ' +
              'citing it over all answers) and `retrievalRate` (answers that read it, cited or not, over the ' +
              'answers whose engine lists what it read; null where none does), each with its interval ' +
              '(docs/analysis.md §6.9)',
            items: looseObject,
          },
          topRetrievedDomains: {
            type: 'array',
            description:
              'The domains the answers read, cited or not, by answers that read them, with `citedAnswers` and ' +
              '`retrievalRate` (docs/analysis.md §6.9); empty when no engine of the point lists what it read',
            items: looseObject,
          },
          // Each tracked brand's own figures (docs/analysis.md §6.4), as the contract lists them.
          brands: { type: 'array', items: looseObject },
          counts: looseObject,
          methodVersion: { type: 'string' },
        },
      },
    },
  },
} as const;

const whenSchema = {
  type: 'object',
  properties: { runId: { type: 'string' }, slotAt: { type: 'string', format: 'date-time' } },
} as const;

const moverSchema = (key: string) =>
  ({
    type: 'array',
    items: {
      type: 'object',
      properties: { [key]: { type: 'string' }, before: { type: 'number' }, after: { type: 'number' } },
    },
  }) as const;

/** `GET /v1/monitors/{id}/signals` (docs/analysis.md §6.7). */
export const monitorSignalsSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    monitorId: { type: 'string' },
    fdr: { type: 'number', description: 'The false discovery rate held over the figures of each run' },
    signals: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          figure: { type: 'string', enum: [...SIGNAL_FIGURES] },
          brand: { type: 'string' },
          role: { type: 'string', enum: ['brand', 'competitor'] },
          engine: { type: 'string' },
          country: { type: ['string', 'null'] },
          direction: { type: 'string', enum: ['up', 'down'] },
          before: { type: 'number', description: 'The baseline mean when the change was first seen' },
          after: { type: 'number', description: 'The latest value while it held' },
          interval: { type: 'object', properties: { low: { type: 'number' }, high: { type: 'number' } } },
          baselineRuns: { type: 'integer' },
          pValue: { type: 'number' },
          qValue: { type: 'number', description: 'Benjamini–Hochberg adjusted p-value over the run' },
          firstSeen: whenSchema,
          lastSeen: whenSchema,
          runs: { type: 'integer' },
          prompts: moverSchema('prompt'),
          domains: moverSchema('domain'),
        },
      },
    },
  },
} as const;

const trendSchema = {
  type: 'array',
  description: 'Per run read, oldest first: its share (null when the run had no answers or citations there)',
  items: {
    type: 'object',
    properties: {
      runId: { type: 'string' },
      slotAt: { type: 'string', format: 'date-time' },
      share: { type: ['number', 'null'] },
    },
  },
} as const;

/** `GET /v1/monitors/{id}/discovered` (docs/analysis.md §6.8). */
export const monitorDiscoveredSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    monitorId: { type: 'string' },
    methodVersion: { type: 'string' },
    runs: { type: 'integer', description: 'Runs read: the latest 30 of the window' },
    answers: { type: 'integer', description: "Answers of those runs: the denominator of a name's share" },
    names: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          key: { type: 'string' },
          answers: { type: 'integer' },
          share: { type: 'number' },
          avgPosition: { type: 'number' },
          engines: { type: 'array', items: { type: 'string' } },
          runsNamed: { type: 'integer' },
          trend: trendSchema,
        },
      },
    },
    domains: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          domain: { type: 'string' },
          citations: { type: 'integer' },
          share: { type: 'number' },
          answers: { type: 'integer' },
          engines: { type: 'array', items: { type: 'string' } },
          runsCited: { type: 'integer' },
          trend: trendSchema,
        },
      },
    },
  },
} as const;
