import { createPromptResearchAdapter } from '../../src/analysis/prompt-research/adapter.js';
import { createSourceInfluenceAdapter } from '../../src/analysis/source-influence/adapter.js';
import { analysisConfig } from '../../src/analysis/config.js';
import { defaultRegistry } from '../../src/engines/adapters.js';
import { startService, type RunningService } from '../helpers/service.js';

/**
 * The real service (sandbox on) with the analysis adapters built from a test AnalysisConfig: the
 * defaults, with autocomplete spacing removed, a 1 s page timeout and caches off, so runs are fast
 * and independent.
 * Everything else (HTTP edge, queue, worker, transport, simulator) is the production wiring.
 */
export const FAST_ANALYSIS = analysisConfig({
  pr: { requests: { delayMs: 0, jitterMs: 0 }, cacheTtlMs: 0 },
  si: { fetch: { cacheTtlMs: 0, retryDelayMs: 10, timeoutMs: 1_000 } },
});

export function startAnalysisService(env: Record<string, string> = {}): Promise<RunningService> {
  const registry = defaultRegistry()
    .register(createSourceInfluenceAdapter({ config: FAST_ANALYSIS, cache: null }))
    .register(createPromptResearchAdapter({ config: FAST_ANALYSIS, cache: null }));
  return startService(env, { registry });
}

/** Submits to a dedicated analysis endpoint and returns the task id (throws unless 202). */
export async function submitAnalysis(svc: RunningService, path: '/v1/source-influence' | '/v1/prompt-research', body: unknown): Promise<string> {
  const r = await svc.call('POST', path, body);
  if (r.status !== 202) throw new Error(`submit failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.task.id as string;
}
