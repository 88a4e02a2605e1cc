import { createPromptResearchAdapter } from '../../src/analysis/prompt-research/adapter.js';
import { createSourceInfluenceAdapter } from '../../src/analysis/source-influence/adapter.js';
import { analysisConfig, type AnalysisConfig } from '../../src/analysis/config.js';
import { defaultRegistry } from '../../src/adapters.js';
import { startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

/**
 * The real service (sandbox on) with the analysis adapters built from a test AnalysisConfig: the
 * defaults, with autocomplete spacing removed, 4 s page and model timeouts (what never answers is
 * given up quickly; a busy test machine still answers in time) and caches off (pages, suggestions and the model
 * judge's answers), so runs are fast and independent. The engine config decides what is configured: in the
 * sandbox SOURCE_INFLUENCE has a model key and PROMPT_RESEARCH Naver Search Ad credentials, and an
 * empty `apiKey` in the AEQ_CONFIG file turns either off.
 * Everything else (HTTP edge, queue, worker, transport, simulator) is the production wiring.
 */
export const FAST_ANALYSIS = analysisConfig({
  pr: { requests: { delayMs: 0, jitterMs: 0 }, cacheTtlMs: 0 },
  si: { fetch: { cacheTtlMs: 0, retryDelayMs: 10, timeoutMs: 4_000 }, model: { timeoutMs: 4_000 } },
});

export interface AnalysisServiceOptions {
  /** SOURCE_INFLUENCE uses the sandbox model (default) or none. */
  model?: boolean;
  /** Turns on the §2.10 model check (engine option `modelCheck`). */
  modelCheck?: boolean;
  /**
   * PROMPT_RESEARCH reads Naver Search Ad volumes (default) or has no credentials; a string is the credential
   * itself.
   */
  searchad?: boolean | string;
  /** Analysis defaults for both adapters (FAST_ANALYSIS unless given). */
  analysis?: Readonly<AnalysisConfig>;
  env?: Record<string, string>;
  /** Collects the service's log lines (to check that no secret is logged). */
  logLines?: string[];
}

export function startAnalysisService(opts: AnalysisServiceOptions = {}): Promise<RunningService> {
  const cfg = opts.analysis ?? FAST_ANALYSIS;
  const registry = defaultRegistry()
    .register(createSourceInfluenceAdapter({ config: cfg, cache: null, judgements: null }))
    .register(createPromptResearchAdapter({ config: cfg, cache: null }));
  const si: Record<string, unknown> = { options: { modelCheck: opts.modelCheck ?? false } };
  if (opts.model === false) si.apiKey = '';
  const pr: Record<string, unknown> = {};
  if (opts.searchad === false) pr.apiKey = '';
  else if (typeof opts.searchad === 'string') pr.apiKey = opts.searchad;
  const file = writeConfig(tempDir('aeq-analysis-'), {
    scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 },
    engines: { SOURCE_INFLUENCE: { upstream: si }, PROMPT_RESEARCH: { upstream: pr } },
  });
  return startService(
    { AEQ_CONFIG: file, ...opts.env },
    opts.logLines ? { registry, logLines: opts.logLines } : { registry },
  );
}

/** Submits to a dedicated analysis endpoint and returns the task id (throws unless 202). */
export async function submitAnalysis(
  svc: RunningService,
  path: '/v1/source-influence' | '/v1/prompt-research',
  body: unknown,
): Promise<string> {
  const r = await svc.call('POST', path, body);
  if (r.status !== 202) throw new Error(`submit failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.task.id as string;
}
