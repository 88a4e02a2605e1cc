import { createPromptResearchAdapter } from '../../src/analysis/prompt-research/adapter.js';
import { createSourceInfluenceAdapter } from '../../src/analysis/source-influence/adapter.js';
import { analysisConfig } from '../../src/analysis/config.js';
import { createApp } from '../../src/app.js';
import { loadSettings } from '../../src/config/settings.js';
import { defaultRegistry } from '../../src/engines/adapters.js';
import { createLogger } from '../../src/ops/logger.js';
import { TEST_KEY, readBody, tempDir, type RunningService } from '../helpers/service.js';

/**
 * The real service (sandbox on) with the analysis adapters built from a test AnalysisConfig: the
 * defaults, with autocomplete spacing removed, a 1 s page timeout and caches off, so runs are fast
 * and independent.
 * Everything else — HTTP edge, queue, worker, transport, simulator — is the production wiring.
 */
export const FAST_ANALYSIS = analysisConfig({
  pr: { requests: { delayMs: 0, jitterMs: 0 }, cacheTtlMs: 0 },
  si: { fetch: { cacheTtlMs: 0, retryDelayMs: 10, timeoutMs: 1_000 } },
});

export async function startAnalysisService(env: Record<string, string> = {}): Promise<RunningService> {
  const dataDir = env.AEQ_DATA_DIR ?? tempDir();
  const settings = loadSettings({
    AEQ_SANDBOX: '1',
    AEQ_API_KEY: TEST_KEY,
    AEQ_WEBHOOK_ALLOW_PRIVATE: '1',
    PORT: '0',
    AEQ_DATA_DIR: dataDir,
    AEQ_LOG_LEVEL: process.env.AEQ_TEST_LOG ?? 'silent',
    ...env,
  });
  const registry = defaultRegistry()
    .register(createSourceInfluenceAdapter({ config: FAST_ANALYSIS, cache: null }))
    .register(createPromptResearchAdapter({ config: FAST_ANALYSIS, cache: null }));
  const app = await createApp(settings, { log: createLogger(settings.logLevel), registry });
  const url = await app.listen();
  return {
    app,
    url,
    dataDir,
    async call(method, p, body, headers = {}) {
      const init: RequestInit = { method, headers: { authorization: `Bearer ${TEST_KEY}`, ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + p, init);
      return { status: res.status, body: await readBody(res), headers: res.headers };
    },
    async raw(method, p, body, headers = {}) {
      const init: RequestInit = { method, headers };
      if (body !== undefined) init.body = typeof body === 'string' ? body : Buffer.from(body);
      const res = await fetch(url + p, init);
      return { status: res.status, body: await readBody(res), headers: res.headers };
    },
    stop: () => app.stop(1000),
  };
}

/** Submits to a dedicated analysis endpoint and returns the task id (throws unless 202). */
export async function submitAnalysis(svc: RunningService, path: '/v1/source-influence' | '/v1/prompt-research', body: unknown): Promise<string> {
  const r = await svc.call('POST', path, body);
  if (r.status !== 202) throw new Error(`submit failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.task.id as string;
}
