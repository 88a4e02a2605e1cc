import { INTENT_ORDER } from '../../analysis/prompt-research/questions.js';
import { bool, described, int, list, nullable, num, object, enumOf, str, strings } from './json-schema.js';
import { modelTokensSchema } from './model-tokens.js';

/**
 * The `response` of a completed PROMPT_RESEARCH task (docs/analysis.md#s3-13), published in the OpenAPI document as
 * the component `PromptResearchResult`. The builder's type is `PromptResearchResult` in
 * src/analysis/prompt-research/result-types.ts; test/client/result-types.test.ts fails when the two differ.
 */
const intent = enumOf(INTENT_ORDER);
const RANK_CRITERIA = [
  'backfill',
  'hasVolume',
  'score',
  'monthlyVolume',
  'evidence',
  'providers',
  'bestRank',
  'appearances',
  'fit',
  'textLength',
  'text',
] as const;
const WARNING_CODES = [
  'FEWER_THAN_LIMIT',
  'MONITOR_SET_SMALLER',
  'SEED_CONTAINS_BRAND',
  'SEED_EXCLUDED',
  'PROVIDER_RATE_LIMITED',
  'PROVIDER_BLOCKED',
  'PROVIDER_ERROR',
  'NO_SUGGESTIONS',
  'VOLUME_LOOKUP_FAILED',
  'NO_FIT_BASIS',
] as const;
const PROVIDER_STATUSES = ['ok', 'partial', 'rate_limited', 'blocked', 'error', 'disabled', 'not_configured'] as const;

const question = object({
  id: str,
  rank: int,
  text: str,
  textOrigin: enumOf(['observed', 'templated'], 'asked as a suggestion said it, or put as a question by a template'),
  query: str,
  variants: strings,
  intent,
  modifier: nullable(str),
  demand: object({
    score: int,
    scoreBasis: enumOf(['monthly_volume', 'autocomplete_evidence']),
    tier: int,
    tierBasis: enumOf(['absolute', 'relative']),
    monthlyVolume: nullable(int),
    volumeSource: nullable(str),
    volumeIsEstimate: bool,
    lowVolume: bool,
    evidence: object({
      autocompleteScore: num,
      appearances: int,
      providers: list(enumOf(['google', 'naver'])),
      bestRank: int,
      seenForSeed: bool,
    }),
  }),
  fit: nullable(
    object({
      score: nullable(int),
      method: enumOf(['lexical']),
      basis: enumOf(['none', 'description_terms']),
      terms: strings,
    }),
    'brand fit; null without a brand description',
  ),
  aboveNextBy: nullable(
    enumOf(RANK_CRITERIA),
    'the first ranking criterion that puts it above the next question; null for the last or a tie',
  ),
});

const monitorSet = object({
  size: int,
  requestedSize: int,
  engines: strings,
  plannedTasks: described(int, 'size × engines'),
  method: enumOf(['mmr']),
  parameters: object({ lambda: num, demandWeight: num, fitWeight: num, intentBonus: num, maxSimilarity: num }),
  items: list(
    object({
      order: int,
      questionId: nullable(str, 'the returned question it is; null for a cluster ranked below the limit'),
      text: str,
      intent,
      demandScore: int,
      fitScore: nullable(int),
      value: num,
      maxSimilarityToSelected: num,
    }),
  ),
  intentCoverage: object(Object.fromEntries(INTENT_ORDER.map((i) => [i, int])), {
    optional: INTENT_ORDER,
    description: 'prompts per intent, for the intents the set covers',
  }),
});

export const promptResearchResultSchema = {
  $id: 'PromptResearchResult',
  ...object(
    {
      resultVersion: { type: 'integer', enum: [1] },
      methodVersion: str,
      simulated: described(bool, "some upstream the task used is the sandbox's simulator"),
      input: object({
        seed: str,
        country: enumOf(['KR', 'US']),
        language: enumOf(['ko', 'en']),
        limit: int,
        exclude: strings,
        brand: nullable(str),
        brandAliases: strings,
        hasBrandDescription: bool,
        monitorSize: int,
        engines: strings,
      }),
      demandBasis: enumOf(
        ['keyword_volume', 'mixed', 'autocomplete'],
        '`keyword_volume` when every returned question has an actual volume, `mixed` when some have one',
      ),
      demandCheck: nullable(
        object({
          method: enumOf(['spearman']),
          ranking: enumOf(['autocomplete_evidence']),
          against: enumOf(['monthly_volume']),
          volumeSource: str,
          n: int,
          rho: nullable(num),
          kendallTauB: nullable(num),
        }),
        'how well autocomplete evidence orders the clusters that have a keyword-tool volume; null with fewer than 8',
      ),
      questions: list(question),
      monitorSet,
      stats: object({
        requests: int,
        suggestions: int,
        navigationalDropped: int,
        scriptDropped: int,
        nonQuestionDropped: int,
        excludedByBrand: int,
        excludedByTerms: int,
        clusters: int,
        returned: int,
      }),
      providers: list(object({ name: str, status: enumOf(PROVIDER_STATUSES), requests: int, failures: int })),
      warnings: list(object({ code: enumOf(WARNING_CODES), message: str, provider: str }, { optional: ['provider'] })),
      usage: object({
        autocompleteRequests: object({ google: int, naver: int, bing: int }),
        volumeRequests: object({ naverSearchad: int, googleAds: int }),
        serpRequests: int,
        cacheHits: int,
        modelTokens: modelTokensSchema,
      }),
    },
    { description: 'The result of a PROMPT_RESEARCH task (docs/analysis.md#s3-13)' },
  ),
};
