import type { SourceInfluenceConfig } from '../config.js';
import { estimateTokens } from '../model/meter.js';
import type { SourceInfluenceInput } from './types.js';

/**
 * The interpretation budget and the metered charge of §2.14. Rates are in micro-credits
 * (`si.credits`), so the arithmetic is exact; the contract reports 1 to 3 credits per task, so the
 * ceiling of the metered amount is clamped to that range (docs/analysis.md, "Metering").
 */
export function tokenLimit(input: SourceInfluenceInput, cfg: SourceInfluenceConfig): number {
  const entities = input.analysis?.entities.length ?? 0;
  const raw =
    2_000 +
    1.5 * estimateTokens(input.answer) +
    2 * estimateTokens(input.prompt) +
    800 * entities +
    1_500 * input.citations.length;
  return Math.min(cfg.budget.maxTokens, Math.ceil(raw));
}

export interface CreditReport {
  /** What the submit-time hold covers: the whole token budget and a fetch per citation. */
  held: number;
  /** What the task used: billed fetches and model tokens; never more than the hold. */
  charged: number;
  /** The unclamped metered amount, in micro-credits (1 credit = 1,000,000). */
  meteredMicro: number;
}

const MICRO = 1_000_000;

function toCredits(micro: number, cfg: SourceInfluenceConfig): number {
  return Math.min(cfg.credits.max, Math.max(cfg.credits.min, Math.ceil(micro / MICRO)));
}

export function credits(
  input: SourceInfluenceInput,
  billedFetches: number,
  tokensUsed: number,
  cfg: SourceInfluenceConfig,
): CreditReport {
  const holdMicro = tokenLimit(input, cfg) * cfg.credits.tokenMicro + input.citations.length * cfg.credits.fetchMicro;
  const meteredMicro = tokensUsed * cfg.credits.tokenMicro + billedFetches * cfg.credits.fetchMicro;
  const held = toCredits(holdMicro, cfg);
  return { held, charged: Math.min(held, toCredits(meteredMicro, cfg)), meteredMicro };
}
