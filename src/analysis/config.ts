/**
 * Defaults of analysis-methods.md §4 in one frozen object. Numbers marked *tunable* there are
 * starting points, not measured optima (no calibration run has been stored yet, §5).
 * Adapters take an AnalysisConfig in their constructor so tests can shorten waits without touching
 * these defaults.
 */
export interface SourceInfluenceConfig {
  fetch: {
    timeoutMs: number;
    maxBytes: number;
    maxRedirects: number;
    concurrency: number;
    perHost: number;
    /** Longest Retry-After we honour before the single retry. */
    maxRetryAfterMs: number;
    /** Wait before the single retry when the upstream gave no Retry-After. */
    retryDelayMs: number;
    /** Page cache by normalised URL; 0 disables it. */
    cacheTtlMs: number;
  };
  text: { maxCharsPerSource: number; minCharsEn: number; minCharsKo: number };
  passage: { maxWordsEn: number; maxCharsKo: number };
  retrieval: { topK: number };
  bm25: { k1: number; b: number };
  lex: { wContain: number; wNgram: number; numBonus: number; numPenalty: number };
  tauFull: number;
  tauPartial: number;
  citedEpsilon: number;
  level: { high: number; medium: number };
  budget: { maxTokens: number };
}

export interface PromptResearchConfig {
  requests: { max: number; delayMs: number; jitterMs: number; timeoutMs: number; perProviderConcurrency: number };
  /** Suggestions of the first pass used as depth-2 prefixes when budget remains. */
  depth2Prefixes: number;
  weights: {
    prefix: { seed: number; modifier: number; alphabet: number; depth2: number };
    provider: { KR: { naver: number; google: number }; US: { google: number; bing: number } };
  };
  dedup: { jaccardEn: number; jaccardKo: number };
  monitor: { lambda: number; intentBonus: number; maxSim: number; demandWeight: number; fitWeight: number; pool: number };
  /** Google suggest client: `firefox` (rank only), `chrome` (types and relevance) or `gws-wiz`. */
  googleClient: 'firefox' | 'chrome' | 'gws-wiz';
  /** Autocomplete response cache by (provider, country, language, query); 0 disables it. */
  cacheTtlMs: number;
}

export interface AnalysisConfig {
  si: SourceInfluenceConfig;
  pr: PromptResearchConfig;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const ANALYSIS_DEFAULTS: Readonly<AnalysisConfig> = deepFreeze({
  si: {
    fetch: {
      timeoutMs: 15_000,
      maxBytes: 5 * 1024 * 1024,
      maxRedirects: 5,
      concurrency: 5,
      perHost: 2,
      maxRetryAfterMs: 5_000,
      retryDelayMs: 300,
      cacheTtlMs: DAY_MS,
    },
    text: { maxCharsPerSource: 60_000, minCharsEn: 200, minCharsKo: 100 },
    passage: { maxWordsEn: 80, maxCharsKo: 200 },
    retrieval: { topK: 8 },
    bm25: { k1: 1.2, b: 0.75 },
    lex: { wContain: 0.6, wNgram: 0.4, numBonus: 0.15, numPenalty: 0.85 },
    tauFull: 0.55,
    tauPartial: 0.3,
    citedEpsilon: 0.25,
    level: { high: 0.2, medium: 0.08 },
    budget: { maxTokens: 120_000 },
  },
  pr: {
    requests: { max: 120, delayMs: 250, jitterMs: 250, timeoutMs: 5_000, perProviderConcurrency: 2 },
    depth2Prefixes: 10,
    weights: {
      prefix: { seed: 1.0, modifier: 0.7, alphabet: 0.4, depth2: 0.3 },
      provider: { KR: { naver: 0.6, google: 0.4 }, US: { google: 0.85, bing: 0.15 } },
    },
    dedup: { jaccardEn: 0.85, jaccardKo: 0.8 },
    monitor: { lambda: 0.7, intentBonus: 0.1, maxSim: 0.8, demandWeight: 0.6, fitWeight: 0.4, pool: 200 },
    googleClient: 'firefox',
    cacheTtlMs: DAY_MS,
  },
});

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** The defaults with some members replaced (tests, operators); the result is frozen too. */
export function analysisConfig(overrides: DeepPartial<AnalysisConfig> = {}): Readonly<AnalysisConfig> {
  return deepFreeze(merge(structuredClone(ANALYSIS_DEFAULTS) as AnalysisConfig, overrides) as AnalysisConfig);
}

function merge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = merge(base[k], v);
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepFreeze<T>(o: T): T {
  if (isPlainObject(o)) for (const v of Object.values(o)) deepFreeze(v);
  return Object.freeze(o);
}
