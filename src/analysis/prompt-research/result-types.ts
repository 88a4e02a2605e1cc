import type { ModelTokensReport } from '../model/meter.js';
import type { FilterStats } from './candidates.js';
import type { Evidence } from './demand.js';
import type { Intent } from './questions.js';
import type { PrWarning, ProviderReport } from './types.js';

/**
 * The PROMPT_RESEARCH result (docs/analysis.md#s3-13): the `response` of a completed task, as `assembleResearch`
 * returns it. Its JSON schema, published in the OpenAPI document as `PromptResearchResult`, is
 * src/http/schemas/prompt-research-result.ts; test/client/result-types.test.ts keeps the two equal.
 */
export interface PromptResearchResult {
  resultVersion: 1;
  methodVersion: string;
  /** Some upstream the task used is the sandbox's simulator. */
  simulated: boolean;
  input: ResearchInputEcho;
  /** `keyword_volume` when every returned question has an actual volume, `mixed` when some have one. */
  demandBasis: 'keyword_volume' | 'mixed' | 'autocomplete';
  /** How well autocomplete evidence orders the clusters with a keyword-tool volume; null with fewer than 8. */
  demandCheck: DemandCheck | null;
  questions: ResearchQuestion[];
  monitorSet: MonitorSet;
  stats: ResearchStats;
  providers: ProviderReport[];
  warnings: PrWarning[];
  usage: ResearchUsage;
}

/** The request as the research read it. */
interface ResearchInputEcho {
  seed: string;
  country: 'KR' | 'US';
  language: 'ko' | 'en';
  limit: number;
  exclude: string[];
  brand: string | null;
  brandAliases: string[];
  hasBrandDescription: boolean;
  monitorSize: number;
  engines: string[];
}

export interface DemandCheck {
  method: 'spearman';
  ranking: 'autocomplete_evidence';
  against: 'monthly_volume';
  volumeSource: string;
  n: number;
  rho: number | null;
  kendallTauB: number | null;
}

/**
 * The ranking criteria of §3.11 in order, each named so the result can say which one put a question above the next
 * (`aboveNextBy`).
 */
export type RankCriterion =
  | 'backfill'
  | 'hasVolume'
  | 'score'
  | 'monthlyVolume'
  | 'evidence'
  | 'providers'
  | 'bestRank'
  | 'appearances'
  | 'fit'
  | 'textLength'
  | 'text';

export interface ResearchQuestion {
  id: string;
  rank: number;
  text: string;
  /** Asked as a suggestion said it, or put as a question from a template. */
  textOrigin: 'observed' | 'templated';
  query: string;
  variants: string[];
  intent: Intent;
  modifier: string | null;
  demand: QuestionDemand;
  /** Null without a brand description. */
  fit: QuestionFit | null;
  /** The first criterion that ranks it above the next question; null for the last or a tie. */
  aboveNextBy: RankCriterion | null;
}

/** Demand of §3.7, from the monthly volume (actual or imputed) or from autocomplete evidence. */
export interface Demand {
  score: number;
  /** What the score is computed from: the monthly volume (actual or imputed) or autocomplete evidence E. */
  scoreBasis: 'monthly_volume' | 'autocomplete_evidence';
  tier: number;
  tierBasis: 'absolute' | 'relative';
  monthlyVolume: number | null;
  volumeSource: string | null;
  volumeIsEstimate: boolean;
  lowVolume: boolean;
}

interface QuestionDemand extends Demand {
  evidence: Evidence;
}

/** Brand fit: the score and the description's words it rests on, or no score and `basis: "none"` (§3.10). */
interface QuestionFit {
  score: number | null;
  method: 'lexical';
  basis: 'none' | 'description_terms';
  terms: string[];
}

export interface MonitorSet {
  size: number;
  requestedSize: number;
  engines: string[];
  plannedTasks: number;
  method: 'mmr';
  parameters: { lambda: number; demandWeight: number; fitWeight: number; intentBonus: number; maxSimilarity: number };
  items: MonitorItem[];
  /** Prompts per intent, for the intents the set covers. */
  intentCoverage: Partial<Record<Intent, number>>;
}

interface MonitorItem {
  order: number;
  /** The returned question it is, or null for a cluster ranked below the limit. */
  questionId: string | null;
  text: string;
  intent: Intent;
  demandScore: number;
  fitScore: number | null;
  value: number;
  maxSimilarityToSelected: number;
}

interface ResearchStats extends FilterStats {
  requests: number;
  clusters: number;
  returned: number;
}

interface ResearchUsage {
  autocompleteRequests: { google: number; naver: number; bing: number };
  volumeRequests: { naverSearchad: number; googleAds: number };
  serpRequests: number;
  cacheHits: number;
  modelTokens: ModelTokensReport;
}
