import type { SourceInfluenceConfig } from '../config.js';
import { analyzeCore } from './core.js';
import { extendedAnalysis } from './extended/analysis.js';
import { buildResult, roundedShares } from './result.js';
import type { FetchRecord, SourceInfluenceInput } from './types.js';

/**
 * SOURCE_INFLUENCE result from the request and the fetched pages (one record per citation, null
 * for duplicates): the legacy shape, plus `analysis` when `analysis.version = 1`. Pure: the same
 * inputs give the same result.
 */
export function analyzeSourceInfluence(input: SourceInfluenceInput, records: ReadonlyArray<FetchRecord | null>, cfg: SourceInfluenceConfig): Record<string, unknown> {
  const core = analyzeCore(input, records, cfg);
  const result = buildResult(core, input, cfg);
  if (input.analysis?.version === 1) {
    const { shares, unattributed } = roundedShares(core);
    result.analysis = extendedAnalysis(core, input, shares, unattributed, cfg);
  }
  return result;
}
