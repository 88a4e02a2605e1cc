import { COMPONENT_ORDER } from '../../analysis/source-influence/extended/components.js';
import { bool, described, int, ints, list, nullable, num, object, enumOf, str, strings } from './json-schema.js';

/**
 * The `analysis` member of a SOURCE_INFLUENCE result (docs/analysis.md#s2-11), present when the request asked for
 * `analysis.version = 1`: the type is `ExtendedAnalysis` in src/analysis/source-influence/result-types.ts.
 */
const STATUSES = [
  'ok',
  'partial',
  'insufficient_input',
  'model_error',
  'timeout',
  'invalid_output',
  'budget_exceeded',
  'internal_error',
] as const;
const componentStatus = enumOf(STATUSES);
const DECISIONS = ['recommended', 'mentioned', 'not_recommended', 'mixed'] as const;
const REQUIREMENT_TYPES = [
  'budget',
  'location',
  'time',
  'quantity',
  'comparison_set',
  'topic',
  'criterion',
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
  'unknown',
] as const;

const requirementItem = object({
  id: str,
  text: str,
  quote: { ...str, description: 'the words of the prompt it rests on' },
  type: enumOf(REQUIREMENT_TYPES),
  mandatory: bool,
  coverage: enumOf(['addressed', 'partial', 'not_addressed'], 'whether the answer addresses it'),
  evidenceUnits: described(ints, 'the answer units that address it'),
  supportingSourceIds: strings,
});

const brandDecision = object({
  entityId: str,
  name: str,
  role: str,
  mentioned: bool,
  mentionCount: int,
  firstMention: nullable(object({ unitIndex: int, charOffset: int })),
  mentionOrder: nullable(int),
  listRank: nullable(int),
  shareOfVoice: nullable(num),
  decision: nullable(
    enumOf([...DECISIONS, 'absent']),
    '`absent` exactly when not mentioned; null when a mentioned brand was not judged (no model)',
  ),
  topPick: nullable(bool),
  sentiment: nullable(num),
  reasons: list(
    object({ polarity: enumOf(['pro', 'con']), summary: str, quote: str, unitIndex: int, sourceIds: strings }),
  ),
});

const sourceMeta = object({
  sourceId: str,
  ownership: object({
    relation: enumOf(['owned', 'not_owned', 'unknown']),
    entityId: nullable(str),
    method: nullable(enumOf(['domain_label', 'site_name', 'publisher_jsonld', 'path_segment', 'model'])),
    confidence: nullable(num, "the model's stated confidence (at most 0.7) when `method` is `model`; else null"),
  }),
  sourceType: enumOf(SOURCE_TYPES),
  mediaClass: enumOf(['owned', 'earned', 'ugc', 'vendor', 'unknown']),
  typeMethod: nullable(enumOf(['domain_list', 'structured_data', 'url_pattern', 'model'])),
  publishedAt: nullable(str, 'YYYY-MM-DD'),
  modifiedAt: nullable(str, 'YYYY-MM-DD'),
  dateSource: str,
  author: nullable(
    object({
      name: str,
      kind: enumOf(['person', 'organization', 'unknown']),
      source: enumOf(['json_ld', 'meta', 'html', 'readability', 'text']),
    }),
  ),
  publisher: nullable(str),
  siteName: nullable(str),
  language: nullable(str),
});

const shares = (description: string) => ({ type: 'object', additionalProperties: num, description });

export const extendedAnalysisSchema = object(
  {
    version: { type: 'integer', enum: [1] },
    status: enumOf(
      STATUSES,
      '`ok` when every component is, `partial` when any is ok or partial, else the first failure',
    ),
    components: object(Object.fromEntries(COMPONENT_ORDER.map((c) => [c, componentStatus]))),
    errors: list(object({ component: enumOf(COMPONENT_ORDER), code: str, message: str })),
    budget: object({ tokenLimit: int, tokensUsed: int }),
    questionRequirements: object({ items: list(requirementItem), coverageRate: nullable(num) }),
    brandDecisions: object({
      entities: list(brandDecision),
      otherBrands: list(object({ name: str, decision: enumOf(DECISIONS), mentionCount: int })),
    }),
    sourceMetadata: list(sourceMeta),
    sourceTypeShares: shares('influence share per source type, and `unattributed`'),
    mediaClassShares: shares('influence share per media class, and `unattributed`'),
  },
  { description: 'The extended analysis (docs/analysis.md#s2-11); only with `analysis.version = 1`' },
);
