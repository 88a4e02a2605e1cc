import type { SourceInfluenceConfig } from '../config.js';
import type { ModelSession } from '../model/session.js';
import { analyzeCore, type AnalysisCore } from './core.js';
import { extendedAnalysis } from './extended/analysis.js';
import { credits, type CreditReport } from './metering.js';
import type { JudgementMemo } from './judgement-cache.js';
import { runModelCheck, type ModelJudgeMode } from './model-check.js';
import { emptyModelTokens } from '../model/meter.js';
import { buildResult, fetchUsage, roundedShares } from './result.js';
import type { ExtendedAnalysis, JudgeBasis, SourceInfluenceResult } from './result-types.js';
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
  /** Which pairs the model judges (§2.10): none, the ambiguous band, or all; needs a session. */
  modelJudge?: 'off' | ModelJudgeMode;
  /** Judgements this tenant already had from this model (judgement-cache.ts); null: every pair is asked. */
  judgementMemo?: JudgementMemo | null;
  /** The pages (and model) came from the sandbox's simulators: the result says `simulated: true`. */
  simulated?: boolean;
  /** The attempt's signal: an aborting attempt is never reported as a component failure. */
  signal?: AbortSignal | null;
  /** The lexical core, already computed (in the parse pool); computed here otherwise. */
  core?: AnalysisCore;
}

export interface AnalyzeOutput {
  result: SourceInfluenceResult;
  credits: CreditReport;
  /** Pairs the model judge labelled, and how many of those labels came from the cache (0 without a model). */
  modelJudged: { judged: number; cached: number };
}

export async function analyzeSourceInfluence(
  input: SourceInfluenceInput,
  records: ReadonlyArray<FetchRecord | null>,
  cfg: SourceInfluenceConfig,
  opts: AnalyzeOptions = {},
): Promise<AnalyzeOutput> {
  const session = opts.session ?? null;
  let core = opts.core ?? analyzeCore(input, records, cfg);
  const warnings: Warning[] = [];
  let alignmentMethod: 'lexical' | 'lexical+model_check' = 'lexical';
  let judge: JudgeBasis = 'lexical';
  const mode = opts.modelJudge ?? 'off';
  let modelJudged = { judged: 0, cached: 0 };
  if (session && mode !== 'off') {
    const checked = await runModelCheck(core, input.prompt, cfg, session, mode, opts.judgementMemo ?? null);
    modelJudged = { judged: checked.judged, cached: checked.cached };
    core = checked.core;
    if (checked.judged > 0) alignmentMethod = 'lexical+model_check';
    const pairs = core.alignments.flatMap((al) => (al.trivial ? [] : al.judgements.filter((j) => j.evidence)));
    const byModel = pairs.filter((j) => j.judge === 'model').length;
    judge = byModel === 0 ? 'lexical' : byModel === pairs.length ? 'model' : 'lexical+model';
    if (checked.warning) warnings.push(checked.warning);
  }
  // The extended analysis runs before the bill (its model calls are metered); the result is assembled last.
  let analysis: ExtendedAnalysis | null = null;
  if (input.analysis?.version === 1) {
    const { shares, unattributed } = roundedShares(core);
    analysis = await extendedAnalysis({
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
  const bill = credits(input, fetches.attempted, session?.meter.tokensUsed ?? 0, cfg);
  const result = buildResult(core, input, cfg, {
    alignmentMethod,
    judge,
    judgeModel: judge === 'lexical' ? null : (session?.model ?? null),
    simulated: opts.simulated === true,
    warnings,
    modelTokens: session?.meter.report() ?? emptyModelTokens(),
    credits: { held: bill.held, charged: bill.charged },
    analysis,
  });
  return { result, credits: bill, modelJudged };
}
