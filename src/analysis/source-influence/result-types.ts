import type { ModelTokensReport } from '../model/meter.js';
import type { Language } from '../text/norm.js';
import type { ComponentError, ComponentName, ComponentStatus } from './extended/components.js';
import type { BrandsValue } from './extended/model-brands.js';
import type { RequirementsValue } from './extended/model-requirements.js';
import type { SourceMeta } from './extended/source-metadata.js';
import type { InfluenceLevel } from './influence-level.js';
import type { ContradictionReason } from './judge/contradiction.js';
import type { JudgeName, SupportLabel } from './judge/labels.js';
import type { FetchStatus, SourceFetchUsage, TextInfo, Warning } from './types.js';

/**
 * The SOURCE_INFLUENCE result (docs/analysis.md#s2-12): the `response` of a completed task, as `buildResult`
 * returns it. Its JSON schema, published in the OpenAPI document as `SourceInfluenceResult`, is
 * src/http/schemas/source-influence-result.ts; test/client/result-types.test.ts keeps the two equal.
 */
export interface SourceInfluenceResult {
  resultVersion: 2;
  methodVersion: string;
  /** The pages (and model) came from the sandbox's simulators. */
  simulated: boolean;
  language: Language;
  answer: AnswerFigures;
  summary: InfluenceSummary;
  sources: InfluenceSource[];
  claims: Claim[];
  domains: DomainInfluence[];
  warnings: Warning[];
  usage: SourceInfluenceUsage;
  /** The extended analysis (§2.11), only when the request asked for `analysis.version = 1`. */
  analysis?: ExtendedAnalysis;
}

/** Which judge labelled the pairs: the lexical judge alone, or the model for some pairs (the rest lexical). */
export type JudgeBasis = 'lexical' | 'lexical+model' | 'model';

/**
 * Whether the judge behind the labels has been measured (judge-evaluation.ts): `judge` is `model` as soon as the
 * model labelled one pair, and a model is never reported as measured.
 */
export interface JudgeEvaluation {
  judge: 'lexical' | 'model';
  measured: boolean;
  note: string;
}

interface AnswerFigures {
  chars: number;
  units: number;
  words: number;
  citationMarkers: number;
  invalidMarkers: Array<{ marker: string; unitIndex: number }>;
  unmatchedLinks: Array<{ url: string; unitIndex: number }>;
  referencesBlock: boolean;
}

interface InfluenceSummary {
  sources: number;
  sourcesWithText: number;
  sourcesSnippetOnly: number;
  sourcesWithoutText: number;
  attributedShare: number;
  unattributedShare: number;
  citationCoverage: number | null;
  citationRecall: number | null;
  citationPrecision: number | null;
  groundedShare: number | null;
  alignmentMethod: 'lexical' | 'lexical+model_check';
  judge: JudgeBasis;
  judgeModel: string | null;
  /** The learned judge's weights version (judge/weights.json), null when the thresholds judged. */
  judgeWeights: string | null;
  judgeEvaluation: JudgeEvaluation;
  claims: number;
  miscitedClaims: number;
  contradictedClaims: number;
  topSourceId: string | null;
}

export interface InfluenceSource {
  sourceId: string;
  inputIndex: number;
  position: number | null;
  url: string;
  finalUrl: string;
  host: string;
  registrableDomain: string;
  title: string | null;
  duplicateOf: string | null;
  fetch: SourceFetch;
  text: TextInfo;
  influence: SourceInfluenceFigures;
  geo: GeoFigures;
  citations: SourceCitations;
  content: SourceContent;
  evidence: SourceEvidence[];
}

interface SourceFetch {
  status: FetchStatus;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number;
  fromCache: boolean;
  short: boolean;
}

interface SourceInfluenceFigures {
  share: number;
  shareOfAttributed: number | null;
  uncitedShare: number;
  score: number;
  rank: number;
  level: InfluenceLevel;
  levelByShare: InfluenceLevel;
  levelNote: string | null;
}

/** The GEO paper's measures (eq. 3 and the subjective proxies); all null when no citation of the answer is valid. */
interface GeoFigures {
  wordCount: number | null;
  positionAdjustedWordCount: number | null;
  normalizedWordCount: number | null;
  normalizedPositionAdjustedWordCount: number | null;
  subjective: SubjectiveImpression | null;
}

export interface SubjectiveImpression {
  basis: 'lexical_proxies';
  relevance: number | null;
  influence: number;
  uniqueness: number;
  position: number;
  count: number;
  diversity: number;
  /** No text measure stands for it. */
  clickLikelihood: null;
  impression: number;
}

interface SourceCitations {
  count: number;
  citedUnits: number;
  firstCitedUnit: number | null;
  citationShare: number | null;
}

interface SourceContent {
  supportedUnits: number;
  partialUnits: number;
  bestSupport: number;
  uniqueSupportShare: number;
  usedWithoutCitation: boolean;
  uncitedSupportedUnits: number;
  contradictedUnits: number;
  relevanceToPrompt: number | null;
}

/** One of the three answer units a source weighs most in. */
export interface SourceEvidence {
  unitIndex: number;
  answerExcerpt: string;
  sourceExcerpt: string | null;
  support: number;
  level: 'full' | 'partial' | 'none';
  cited: boolean;
}

/** The per-claim view: one unit of the answer, the sources it cites and what the judge said of each readable one. */
export interface Claim {
  claimId: string;
  index: number;
  text: string;
  start: number;
  end: number;
  words: number;
  trivial: boolean;
  cites: string[];
  miscited: boolean;
  supportedBy: string[];
  uncitedSupport: string[];
  contradictedBy: string[];
  sources: ClaimSource[];
}

interface ClaimSource {
  sourceId: string;
  cited: boolean;
  label: SupportLabel;
  /** Calibrated probability that `label` is right; null where nothing calibrated it (a model's label, a rule's). */
  confidence: number | null;
  score: number;
  /** Expected support (P(supported) + ½·P(partial)): what the source's weight on the claim rests on. */
  support: number;
  evidence: string | null;
  reason: ContradictionReason | null;
  changed: { claim: string; page: string } | null;
  judge: JudgeName;
  weight: number;
}

export interface DomainInfluence {
  registrableDomain: string;
  sourceIds: string[];
  urls: number;
  influenceShare: number;
  citationCount: number;
}

interface SourceInfluenceUsage {
  modelTokens: ModelTokensReport;
  sourceFetches: SourceFetchUsage;
  /** Credits held at submission and charged (§2.14). */
  credits: { held: number; charged: number };
}

/** The `analysis` member (§2.11): three components, each with its status, and the shares by source type and class. */
export interface ExtendedAnalysis {
  version: 1;
  status: ComponentStatus;
  components: Record<ComponentName, ComponentStatus>;
  errors: ComponentError[];
  budget: { tokenLimit: number; tokensUsed: number };
  questionRequirements: RequirementsValue;
  brandDecisions: BrandsValue;
  sourceMetadata: SourceMeta[];
  /** Influence share per source type, largest first, and `unattributed`. */
  sourceTypeShares: Record<string, number>;
  /** Influence share per media class, largest first, and `unattributed`. */
  mediaClassShares: Record<string, number>;
}
