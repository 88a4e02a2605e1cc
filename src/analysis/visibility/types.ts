/** Inputs of the visibility metrics (§6): one answer, the monitored brand and its competitors. */

/**
 * An engine's answer as the metrics need it: its text and the sources it cited, in order, and what is behind it where
 * the engine says (docs/contract.md#answer-signals): whether it searched, and the pages it read but did not cite.
 * Absent or null: the engine cannot tell, and the answer is left out of the figures that rest on it (§6.9).
 */
export interface Answer {
  text: string;
  sources: ReadonlyArray<{ url: string }>;
  searchTriggered?: boolean | null | undefined;
  retrievedSources?: ReadonlyArray<{ url: string }> | null | undefined;
}

/** The brand a monitor tracks. `domains` are its own sites; any subdomain of one counts as the brand's. */
export interface MonitoredBrand {
  name: string;
  aliases: readonly string[];
  domains: readonly string[];
}

/** A brand the monitored one is compared with; its domains, when given, label its sites in the domain table. */
export interface CompetitorBrand {
  name: string;
  aliases: readonly string[];
  domains?: readonly string[] | undefined;
}

/**
 * One task of a run: an answer, or a task that failed (counted apart, never as an answer without the brand). An
 * answer's `prompt` groups the samples of one prompt for the intervals (§6.6); without it, each answer stands alone.
 */
export type RunAnswer = { status: 'answered'; answer: Answer; prompt?: string } | { status: 'failed' };
