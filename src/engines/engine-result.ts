/*
 * The result types shared by adapters and parsers. Parsers import them from here, never from
 * adapter.ts, whose AttemptContext refers to the parse table that lists the parsers.
 */

/** One cited or listed source: 1-based position in first-appearance or rank order. */
export interface Source {
  position: number;
  url: string;
  label: string;
}

/** A page the engine consulted to write its answer but did not cite (docs/contract.md#answer-signals). */
export interface RetrievedSource {
  /** 1-based, in the order the engine listed or consulted them. */
  position: number;
  url: string;
  title: string | null;
  /** The search query that found it, where the engine says. */
  query: string | null;
}

/** A product or shopping card shown in an answer. */
interface ProductCard {
  position: number;
  title: string;
  url: string | null;
  /** The price as shown ("$19.99"), and its ISO currency where it can be told. */
  price: string | null;
  currency: string | null;
  merchant: string | null;
  rating: number | null;
}

/** A sponsored unit inside an answer. */
interface AdUnit {
  position: number;
  title: string;
  url: string | null;
}

/** A local (map) card. */
interface PlaceCard {
  position: number;
  name: string;
  url: string | null;
  address: string | null;
  rating: number | null;
}

/**
 * What is behind an answer (docs/contract.md#answer-signals). An engine sets the members it can see; every member it
 * leaves unset is null in the response ("unknown"), never an empty guess.
 */
export interface AnswerSignals {
  /** The searches the engine ran to write the answer, in order. */
  searchQueries: string[];
  /** Whether the engine searched the web for this answer. */
  searchTriggered: boolean;
  retrievedSources: RetrievedSource[];
  products: ProductCard[];
  ads: AdUnit[];
  places: PlaceCard[];
}

/**
 * Where the engine itself says it served the answer for (docs/contract.md#region): the country and language of its
 * own locale signal, and which signal that was. A member it does not say is null.
 */
export interface EngineLocale {
  country: string | null;
  language: string | null;
  /** The signal read, e.g. `google footer` or `html lang`. */
  signal: string;
}

/** The one normalised shape every engine answer is turned into (docs/engines.md#normalised-answer). */
export interface EngineResult {
  text: string;
  markdown: string;
  sources: Source[];
  /** The upstream payload plus diagnostics (final URL, status, selector tier). */
  raw: unknown;
  /**
   * Extra engine-specific members of the response (e.g. `aioverview`, `organic`, `images`); for an analysis, its whole
   * typed result (`SourceInfluenceResult`, `PromptResearchResult`).
   */
  extra?: object;
  /** The answer signals this engine could read from the upstream's answer (answer engines only). */
  signals?: Partial<AnswerSignals>;
  /** The engine's own signal of the region it served, where it gives one. */
  locale?: EngineLocale;
  /**
   * Metered charge of this task, for engines billed by actual usage (source influence: model tokens
   * and source fetches). Absent: the engine's fixed cost from the config.
   */
  credits?: number;
}
