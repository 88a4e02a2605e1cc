import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, tempDir, waitTerminal, writeConfig, type RunningService } from '../helpers/service.js';
import { startJudgeServer, type JudgeServer } from './judge-server.js';

/**
 * The documented local-model setup in the production wiring (sandbox off, the page readers' private-address guard
 * on): SOURCE_INFLUENCE configured with a model server on loopback, as `llama-server --port 8080` would be, judges
 * with it, since the endpoint is configuration and not a client URL, while a cited page on loopback is still
 * refused. The adapter's judgement cache then spares the second task of the same claims every call and token.
 */
const MODEL = 'local-llama-3.1-8b';
const PAGES = [
  'In 1997 the direction of the company was transferred to a board of trustees. The founder kept an honorary title.',
  'The museum opened in 1994 on the old harbour. The museum is open to visitors every day except Monday.',
];
const BODY = {
  answer:
    'The founder gave up control of the company in 1997 [1]. The harbour museum opened in 1994 [2]. ' +
    'The harbour museum is closed to visitors on most days [2].',
  // Loopback pages are refused by the guard: the snippets are what the pairs are judged on.
  citations: [
    { url: 'http://127.0.0.1:9/company', title: 'Company history', snippet: PAGES[0] },
    { url: 'http://127.0.0.1:9/museum', title: 'Harbour museum', snippet: PAGES[1] },
  ],
};

describe('a local model server in the production wiring', () => {
  let judge: JudgeServer;
  let svc: RunningService;

  beforeAll(async () => {
    judge = await startJudgeServer();
    const file = writeConfig(tempDir('aeq-local-model-'), {
      scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 },
      engines: {
        SOURCE_INFLUENCE: {
          upstream: {
            apiKey: 'local',
            options: { modelBaseUrl: `${judge.base}/v1`, model: MODEL, modelJudge: 'all' },
          },
        },
      },
    });
    svc = await startService({ AEQ_CONFIG: file, AEQ_SANDBOX: '0', AEQ_READER_ALLOW_PRIVATE: '0' });
  });
  afterAll(async () => {
    await svc?.stop();
    await judge?.close();
  });

  const run = async () => {
    const r = await svc.call('POST', '/v1/source-influence', BODY);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const view = await waitTerminal(svc, r.body.task.id as string, 30_000);
    expect(view.task.status, JSON.stringify(view)).toBe('COMPLETED');
    return view.response;
  };

  it('judges with the loopback model while the loopback pages stay refused; a repeat costs no call', async () => {
    const first = await run();
    expect(first.simulated).toBe(false);
    expect(first.sources.map((s: any) => s.fetch.status)).toEqual(['ssrf_refused', 'ssrf_refused']);
    expect(first.warnings.map((w: any) => w.code)).not.toContain('MODEL_CHECK_FAILED');
    expect(judge.seen.length).toBeGreaterThan(0);
    expect(judge.seen.every((s) => s.model === MODEL && s.authorization === 'Bearer local')).toBe(true);
    const sent = judge.seen.flatMap((s) => s.pairs).length;
    expect(first.summary).toMatchObject({ judge: 'model', judgeModel: MODEL });
    expect(first.summary.judgeEvaluation).toMatchObject({ judge: 'model', measured: false });
    expect(first.usage.modelTokens.calls).toEqual([
      {
        purpose: 'model_check',
        model: MODEL,
        count: judge.seen.length,
        input: 100 * judge.seen.length,
        output: 20 * judge.seen.length,
      },
    ]);
    const byModel = first.claims.flatMap((c: any) => c.sources.filter((s: any) => s.judge === 'model'));
    expect(byModel).toHaveLength(sent);

    const requests = judge.requests();
    const again = await run();
    expect(judge.requests()).toBe(requests);
    expect(again.usage.modelTokens).toEqual({ input: 0, output: 0, estimated: false, calls: [] });
    expect(again.claims).toEqual(first.claims);
    expect(again.summary.judge).toBe('model');
  });
});
