import type { SourceInfluenceConfig } from '../config.js';
import type { ModelSession } from '../model/session.js';
import { analyzeCore } from './core.js';
import { extendedAnalysis } from './extended/analysis.js';
import { credits, type CreditReport } from './metering.js';
import { runModelCheck } from './model-check.js';
import { buildResult, fetchUsage, roundedShares } from './result.js';
import type { FetchRecord, SourceInfluenceInput, Warning } from './types.js';

/**
 * SOURCE_INFLUENCE result from the request and the fetched pages (one record per citation, null
 * for duplicates): the legacy shape, plus `analysis` when `analysis.version = 1`. Without a model
 * session the function is pure; with one, the same inputs and the same model outputs give the same
 * result (calls run one at a time in a fixed order).
 */
export interface AnalyzeOptions {
  /** The interpretation model, or null when none is configured. */
  session?: ModelSession | null;
  /** Whether the model judges borderline alignments (§2.10); needs a session. */
  modelCheck?: boolean;
  /** The attempt's signal: an aborting attempt is never reported as a component failure. */
  signal?: AbortSignal | null;
}

export interface AnalyzeOutput {
  result: Record<string, unknown>;
  credits: CreditReport;
}

export async function analyzeSourceInfluence(
  input: SourceInfluenceInput,
  records: ReadonlyArray<FetchRecord | null>,
  cfg: SourceInfluenceConfig,
  opts: AnalyzeOptions = {},
): Promise<AnalyzeOutput> {
  const session = opts.session ?? null;
  let core = analyzeCore(input, records, cfg);
  const warnings: Warning[] = [];
  let alignmentMethod: 'lexical' | 'lexical+model_check' = 'lexical';
  if (session && opts.modelCheck) {
    const checked = await runModelCheck(core, input.prompt, cfg, session);
    core = checked.core;
    if (checked.judged > 0) alignmentMethod = 'lexical+model_check';
    if (checked.warning) warnings.push(checked.warning);
  }
  const result = buildResult(core, input, cfg, { alignmentMethod, warnings });
  if (input.analysis?.version === 1) {
    const { shares, unattributed } = roundedShares(core);
    result.analysis = await extendedAnalysis({
      core,
      input,
      shares,
      unattributed,
      cfg,
      session,
      signal: opts.signal ?? null,
    });
  }
  const fetches = fetchUsage(core.sources);
  const tokens = session?.meter.report();
  const bill = credits(input, fetches.attempted, session?.meter.tokensUsed ?? 0, cfg);
  const usage = result.usage as Record<string, unknown>;
  if (tokens) usage.modelTokens = tokens;
  usage.credits = { held: bill.held, charged: bill.charged };
  return { result, credits: bill };
}
