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
  /**
   * Metered charge of this task, for engines billed by actual usage (source influence: model tokens
   * and source fetches). Absent: the engine's fixed cost from the config.
   */
  credits?: number;
}
