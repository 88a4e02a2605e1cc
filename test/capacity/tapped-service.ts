import { startSimulator, type Simulator } from '../../src/sandbox/server.js';
import { SANDBOX_PREFIX } from '../../src/sandbox/upstream-map.js';
import { ENGINE_TASK_TYPES } from '../../src/domain/engine-catalog.js';
import { startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';
import { startTap, type UpstreamTap } from './upstream-tap.js';

export interface TappedService {
  svc: RunningService;
  tap: UpstreamTap;
  stop(): Promise<void>;
}

/**
 * The real service with its sandbox switch off, configured like a deployment whose upstreams sit
 * behind a recording tap; the tap forwards to the real simulator. Exit addresses and CHATBOT_A
 * accounts exist in US and KR, so a task can be served for either country.
 */
export async function startTappedService(env: Record<string, string> = {}): Promise<TappedService> {
  const sim: Simulator = await startSimulator();
  const tap = await startTap(sim.url);
  const engines: Record<string, unknown> = {};
  for (const t of ENGINE_TASK_TYPES) engines[t] = { upstream: { baseUrl: tap.url + SANDBOX_PREFIX[t] } };
  // The simulator's pages need no JavaScript: the tap records plain HTTP (the browser path has its own tests).
  for (const t of ['SEARCH_A', 'SEARCH_A_SERP', 'AIMODE', 'SEARCH_B_AI_BRIEF', 'SEARCH_B_AI_TAB'])
    engines[t] = { ...(engines[t] as object), transport: 'http' };
  engines.ANSWER_ENGINE_A = { upstream: { baseUrl: `${tap.url}/perplexity`, apiKey: 'pplx-tap-key-0001' } };
  engines.ASSISTANT_A = { upstream: { baseUrl: `${tap.url}/gemini`, apiKey: 'gemini-tap-key-0001' } };
  engines.SEARCH_B_SERP = {
    upstream: { baseUrl: `${tap.url}/naver`, options: { blogBaseUrl: `${tap.url}/naver-blog` } },
  };
  const config = writeConfig(tempDir(), {
    scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100, pollMs: 50 },
    engines,
    accounts: [
      { id: 'tap-chatbot-us', engine: 'CHATBOT_A', country: 'US', secret: 'sk-tap-account-us-0001' },
      { id: 'tap-chatbot-kr', engine: 'CHATBOT_A', country: 'KR', secret: 'sk-tap-account-kr-0001' },
    ],
    exitAddresses: [
      { id: 'tap-exit-us', country: 'US' },
      { id: 'tap-exit-kr', country: 'KR' },
    ],
  });
  const svc = await startService({ AEQ_SANDBOX: '0', AEQ_CONFIG: config, AEQ_ENGINE_TIMEOUT_MS: '5000', ...env });
  return {
    svc,
    tap,
    async stop() {
      await svc.stop();
      await tap.close();
      await sim.close();
    },
  };
}
