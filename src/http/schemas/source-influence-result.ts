import { bool, described, int, list, nullable, num, object, enumOf, str, strings } from './json-schema.js';
import { modelTokensSchema } from './model-tokens.js';
import { extendedAnalysisSchema } from './source-influence-analysis.js';

/**
 * The `response` of a completed SOURCE_INFLUENCE task (docs/analysis.md#s2-12), published in the OpenAPI document as
 * the component `SourceInfluenceResult`. The builder's type is `SourceInfluenceResult` in
 * src/analysis/source-influence/result-types.ts; test/client/result-types.test.ts fails when the two differ.
 */
const LEVELS = ['high', 'medium', 'low', 'none'] as const;
const FETCH_STATUSES = [
  'ok',
  'http_error',
  'timeout',
  'blocked',
  'unsupported_content_type',
  'too_large',
  'invalid_url',
  'ssrf_refused',
  'network_error',
  'empty_content',
  'duplicate',
  'not_fetched',
] as const;
const language = enumOf(['ko', 'en', 'und']);

const source = object({
  sourceId: described(str, '`c1`, `c2`, … in the order of the request'),
  inputIndex: int,
  position: nullable(int),
  url: str,
  finalUrl: str,
  host: str,
  registrableDomain: str,
  title: nullable(str),
  duplicateOf: nullable(str, 'the source with the same URL, whose markers these count for'),
  fetch: object({
    status: enumOf(FETCH_STATUSES),
    httpStatus: nullable(int),
    contentType: nullable(str),
    bytes: int,
    fromCache: bool,
    short: bool,
  }),
  text: object({
    source: enumOf(['extracted', 'body_fallback', 'snippet', 'title', 'none'], 'what the source was aligned against'),
    chars: int,
    passages: int,
    truncated: bool,
    language,
  }),
  influence: object({
    share: num,
    shareOfAttributed: nullable(num),
    uncitedShare: num,
    score: int,
    rank: int,
    level: enumOf(LEVELS, 'never more than the claims show: `high` needs a claim the source supports fully'),
    levelByShare: enumOf(LEVELS),
    levelNote: nullable(str, 'why `level` is below `levelByShare`'),
  }),
  geo: object(
    {
      wordCount: nullable(num),
      positionAdjustedWordCount: nullable(num),
      normalizedWordCount: nullable(num),
      normalizedPositionAdjustedWordCount: nullable(num),
      subjective: nullable(
        object({
          basis: enumOf(['lexical_proxies']),
          relevance: nullable(num),
          influence: num,
          uniqueness: num,
          position: num,
          count: num,
          diversity: num,
          clickLikelihood: { type: 'null', description: 'no text measure stands for it' },
          impression: num,
        }),
      ),
    },
    { description: "the GEO paper's measures; all null when no citation of the answer is valid" },
  ),
  citations: object({ count: int, citedUnits: int, firstCitedUnit: nullable(int), citationShare: nullable(num) }),
  content: object({
    supportedUnits: int,
    partialUnits: int,
    bestSupport: num,
    uniqueSupportShare: num,
    usedWithoutCitation: bool,
    uncitedSupportedUnits: int,
    contradictedUnits: int,
    relevanceToPrompt: nullable(num),
  }),
  evidence: list(
    object({
      unitIndex: int,
      answerExcerpt: str,
      sourceExcerpt: nullable(str),
      support: num,
      level: enumOf(['full', 'partial', 'none']),
      cited: bool,
    }),
    'the (up to) three answer units it weighs most in',
  ),
});

const claim = object({
  claimId: str,
  index: int,
  text: str,
  start: int,
  end: int,
  words: int,
  trivial: described(bool, 'fewer than 3 content words: not judged'),
  cites: described(strings, 'the sources its markers name'),
  miscited: bool,
  supportedBy: strings,
  uncitedSupport: strings,
  contradictedBy: strings,
  sources: list(
    object({
      sourceId: str,
      cited: bool,
      label: enumOf(['supported', 'partial', 'unsupported', 'contradicted']),
      confidence: nullable(
        num,
        'calibrated probability that the label is right (the learned judge); null for a model label or a rule',
      ),
      score: num,
      support: described(num, "expected support, P(supported) + ½·P(partial): the source's weight rests on it"),
      evidence: nullable(str),
      reason: nullable(enumOf(['negation', 'antonym', 'number', 'date', 'name']), 'why it is contradicted'),
      changed: nullable(object({ claim: str, page: str }), 'the differing pieces of a contradiction'),
      judge: enumOf(['lexical', 'model']),
      weight: num,
    }),
    "the judge's label for every readable source",
  ),
});

export const sourceInfluenceResultSchema = {
  $id: 'SourceInfluenceResult',
  ...object(
    {
      resultVersion: { type: 'integer', enum: [2] },
      methodVersion: str,
      simulated: described(bool, "the pages (and model) came from the sandbox's simulators"),
      language,
      answer: object({
        chars: int,
        units: int,
        words: int,
        citationMarkers: int,
        invalidMarkers: list(object({ marker: str, unitIndex: int })),
        unmatchedLinks: list(object({ url: str, unitIndex: int })),
        referencesBlock: bool,
      }),
      summary: object({
        sources: int,
        sourcesWithText: int,
        sourcesSnippetOnly: int,
        sourcesWithoutText: int,
        attributedShare: num,
        unattributedShare: num,
        citationCoverage: nullable(num),
        citationRecall: nullable(num),
        citationPrecision: nullable(num),
        groundedShare: nullable(num),
        alignmentMethod: enumOf(['lexical', 'lexical+model_check']),
        judge: enumOf(['lexical', 'lexical+model', 'model']),
        judgeModel: nullable(str),
        judgeWeights: nullable(str, "the learned judge's weights version; null when the thresholds judged"),
        judgeEvaluation: described(
          object({ judge: enumOf(['lexical', 'model']), measured: bool, note: str }),
          'whether the judge behind the labels was measured on the held-out evaluation sets: `judge` is `model` ' +
            'once the model labelled any pair, and the model is reported unmeasured ' +
            '(docs/analysis.md, The model judge)',
        ),
        claims: int,
        miscitedClaims: int,
        contradictedClaims: int,
        topSourceId: nullable(str),
      }),
      sources: list(source),
      claims: list(claim, 'the per-claim view: every unit of the answer'),
      domains: list(
        object({
          registrableDomain: str,
          sourceIds: strings,
          urls: int,
          influenceShare: num,
          citationCount: int,
        }),
      ),
      warnings: list(object({ code: str, message: str, sourceId: str }, { optional: ['sourceId'] })),
      usage: object({
        modelTokens: modelTokensSchema,
        sourceFetches: object({
          attempted: int,
          succeeded: int,
          failed: int,
          retries: int,
          cacheHits: int,
          bytes: int,
        }),
        credits: object({ held: int, charged: int }),
      }),
      analysis: extendedAnalysisSchema,
    },
    {
      optional: ['analysis'],
      description: 'The result of a SOURCE_INFLUENCE task (docs/analysis.md#s2-12)',
    },
  ),
};
