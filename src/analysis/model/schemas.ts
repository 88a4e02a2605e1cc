import { Ajv, type ValidateFunction } from 'ajv';
import type { ModelPurpose } from './meter.js';

/**
 * Response schemas of the model steps (§2.10, §2.11). They are sent as the `json_schema` response
 * format in strict mode (every property required, no extra properties) and the same objects
 * validate the answer, so what is asked and what is accepted cannot drift. Bounds (lengths, item
 * counts, ranges) are checked here but left out of the wire copy: OpenAI's strict mode has refused
 * some of those keywords, and a refused schema would fail every call.
 */
const obj = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const arr = (items: unknown, maxItems = 100) => ({ type: 'array', items, maxItems });
const str = (maxLength = 1000) => ({ type: 'string', maxLength });

const REQUIREMENT_TYPES = [
  'topic',
  'criterion',
  'budget',
  'location',
  'time',
  'quantity',
  'comparison_set',
  'audience',
  'format',
  'other',
] as const;
const SOURCE_TYPES = [
  'institutional',
  'reference',
  'ugc_forum',
  'ugc_social',
  'review_site',
  'marketplace',
  'news',
  'editorial',
  'vendor_page',
  'other',
] as const;

export interface ModelCheckOutput {
  judgements: Array<{ id: string; label: 'supported' | 'partial' | 'unsupported' | 'contradicted' }>;
}
export interface RequirementsOutput {
  items: Array<{ text: string; quote: string; type: (typeof REQUIREMENT_TYPES)[number]; mandatory: boolean }>;
}
export interface CoverageOutput {
  results: Array<{ id: string; coverage: 'addressed' | 'partial' | 'not_addressed'; unitIndexes: number[] }>;
}
export interface BrandDecisionsOutput {
  entities: Array<{
    entityId: string;
    decision: 'recommended' | 'mentioned' | 'not_recommended' | 'mixed';
    topPick: boolean;
    sentiment: number;
    reasons: Array<{ polarity: 'pro' | 'con'; summary: string; quote: string; unitIndex: number }>;
  }>;
  otherBrands: Array<{ name: string; decision: 'recommended' | 'mentioned' | 'not_recommended' | 'mixed' }>;
}
export interface ClassificationOutput {
  sources: Array<{
    sourceId: string;
    sourceType: (typeof SOURCE_TYPES)[number];
    ownership: 'owned' | 'not_owned' | 'unknown';
    entityId: string | null;
    confidence: number;
  }>;
}

const DECISIONS = ['recommended', 'mentioned', 'not_recommended', 'mixed'];

export const PURPOSE_SCHEMAS: Readonly<Record<ModelPurpose, Record<string, unknown>>> = {
  model_check: obj({
    judgements: arr(
      obj({ id: str(20), label: { type: 'string', enum: ['supported', 'partial', 'unsupported', 'contradicted'] } }),
      50,
    ),
  }),
  requirements: obj({
    items: arr(
      obj({
        text: str(80),
        quote: str(500),
        type: { type: 'string', enum: [...REQUIREMENT_TYPES] },
        mandatory: { type: 'boolean' },
      }),
      30,
    ),
  }),
  requirement_coverage: obj({
    results: arr(
      obj({
        id: str(20),
        coverage: { type: 'string', enum: ['addressed', 'partial', 'not_addressed'] },
        unitIndexes: arr({ type: 'integer', minimum: 0 }, 20),
      }),
      50,
    ),
  }),
  brand_decisions: obj({
    entities: arr(
      obj({
        entityId: str(100),
        decision: { type: 'string', enum: DECISIONS },
        topPick: { type: 'boolean' },
        sentiment: { type: 'number', minimum: -1, maximum: 1 },
        reasons: arr(
          obj({
            polarity: { type: 'string', enum: ['pro', 'con'] },
            summary: str(200),
            quote: str(500),
            unitIndex: { type: 'integer', minimum: 0 },
          }),
          20,
        ),
      }),
      60,
    ),
    otherBrands: arr(obj({ name: str(80), decision: { type: 'string', enum: DECISIONS } }), 30),
  }),
  source_classification: obj({
    sources: arr(
      obj({
        sourceId: str(20),
        sourceType: { type: 'string', enum: [...SOURCE_TYPES] },
        ownership: { type: 'string', enum: ['owned', 'not_owned', 'unknown'] },
        entityId: { type: ['string', 'null'], maxLength: 100 },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
      }),
      30,
    ),
  }),
};

const ajv = new Ajv({ allErrors: false, allowUnionTypes: true, strict: false });
const compiled = new Map<ModelPurpose, ValidateFunction>();

export function validatorFor(purpose: ModelPurpose): ValidateFunction {
  let v = compiled.get(purpose);
  if (!v) {
    v = ajv.compile(PURPOSE_SCHEMAS[purpose]);
    compiled.set(purpose, v);
  }
  return v;
}

const BOUND_KEYWORDS = new Set(['maxLength', 'minLength', 'maxItems', 'minItems', 'minimum', 'maximum']);

/** The schema as sent to the provider: the same shape without the bound keywords. */
export function wireSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(wireSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) if (!BOUND_KEYWORDS.has(k)) out[k] = wireSchema(v);
  return out;
}
