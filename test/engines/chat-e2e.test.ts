import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

interface Source {
  position: number;
  url: string;
  label: string;
}

/**
 * CHATBOT_A and ASSISTANT_A through the real service, the real adapters and the sandbox upstreams
 * (OpenAI Responses API over SSE, Gemini generateContent with grounding redirects).
 */
describe('chat engines through the sandbox', () => {
  let svc: RunningService;
  beforeAll(async () => {
    const config = writeConfig(tempDir(), { scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 } });
    svc = await startService({ AEQ_CONFIG: config, AEQ_ENGINE_TIMEOUT_MS: '3000' });
    // The first attempt of each engine loads its modules and starts the parse threads: on a loaded machine that alone
    // can outlast a short attempt budget. These tests are about answers, so each engine answers once first.
    for (const taskType of ['CHATBOT_A', 'ASSISTANT_A'])
      await runTask(svc, { taskType, payload: { prompt: 'warm up', country: 'US' } });
  }, 60_000);
  afterAll(() => svc.stop());

  describe('CHATBOT_A', () => {
    it('completes in the US with sources and [n] markers after each cited span', async () => {
      const r = await runTask(svc, {
        taskType: 'CHATBOT_A',
        payload: { prompt: 'best trail running shoes', country: 'US' },
      });
      expect(r.task.status).toBe('COMPLETED');
      const { markdown, text, sources } = r.response as { markdown: string; text: string; sources: Source[] };
      expect(sources.map((s) => s.position)).toEqual([1, 2, 3]);
      for (const s of sources) expect(s.url).not.toMatch(/utm_source/);
      // Each cited span ends with the model's link; the marker must follow its closing parenthesis
      // (offsets are code points and the answer starts with an emoji).
      expect(markdown.match(/\)\)\[\d\](\[\d\])?/g)).toHaveLength(3);
      expect(markdown).toMatch(/\)\)\[2\]\[3\]/);
      expect(markdown).not.toMatch(/utm_source/);
      expect(text).toMatch(/^📌 best trail running shoes /);
      expect(text).not.toMatch(/\[\d\]/);
      expect(r.response.rawResponse).toBeUndefined();
      expect(r.response.html).toBeUndefined();
      expect(r.credits).toEqual({ creditsToCharge: 3, creditsCharged: 3 });
    });

    it('answers a Korean prompt in Korean from a KR account', async () => {
      const r = await runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt: '서울 맛집 추천', country: 'KR' } });
      expect(r.task.status).toBe('COMPLETED');
      expect(r.response.text).toMatch(/\p{Script=Hangul}{2,}/u);
      expect(r.response.markdown).toMatch(/습니다\. \(\[[^\]]+\]\([^)]+\)\)\[1\]/);
    });

    it('honours rawResponse, html and markdown:false without leaking the account key', async () => {
      const r = await runTask(svc, {
        taskType: 'CHATBOT_A',
        payload: { prompt: 'compare e-bikes', include: { rawResponse: true, html: true, markdown: false } },
      });
      expect(r.task.status).toBe('COMPLETED');
      expect(r.response.markdown).toBeUndefined();
      expect(r.response.html).toMatch(/^<p>/);
      const raw = r.response.rawResponse as {
        response: { object: string; status: string };
        consultedSources: string[];
        transport: string;
      };
      expect(raw.response.object).toBe('response');
      expect(raw.response.status).toBe('completed');
      expect(raw.transport).toBe('sse');
      expect(raw.consultedSources.length).toBeGreaterThan(r.response.sources.length);
      expect(JSON.stringify(r)).not.toMatch(/sk-/);
    });

    it('sandbox:empty is ENGINE_NO_RESULT', async () => {
      const r = await runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt: 'nothing here sandbox:empty' } });
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_NO_RESULT: /);
    });

    it('sandbox:captcha (429 rate_limit_exceeded) fails with ENGINE_FAILED after retries', async () => {
      const r = await runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt: 'blocked sandbox:captcha' } });
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_FAILED: /);
    });

    it('sandbox:flaky=1 completes on the retry', async () => {
      const r = await runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt: 'flaky chat sandbox:flaky=1' } });
      expect(r.task.status).toBe('COMPLETED');
      expect(r.response.sources.length).toBe(3);
    });

    it('a stream cut before response.completed fails as ENGINE_FAILED', async () => {
      const r = await runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt: 'cut me off sandbox:cut' } });
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_FAILED: /);
    });

    it('sandbox:timeout is ENGINE_TIMEOUT', async () => {
      const r = await runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt: 'slow sandbox:timeout' } });
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_TIMEOUT: /);
    });

    it('rejects countries without accounts or addresses, and countries it never serves', async () => {
      const jp = await svc.call('POST', '/v1/async/task', {
        taskType: 'CHATBOT_A',
        payload: { prompt: 'x', country: 'JP' },
      });
      expect(jp.status).toBe(422);
      expect(jp.body.error.code).toBe('REGION_UNAVAILABLE');
      expect(jp.body.error.details).toEqual({ country: 'JP', serveable: false, hasIps: true });
      const fr = await svc.call('POST', '/v1/async/task', {
        taskType: 'CHATBOT_A',
        payload: { prompt: 'x', country: 'fr' },
      });
      expect(fr.status).toBe(422);
      expect(fr.body.error.code).toBe('REGION_UNAVAILABLE');
      expect(fr.body.error.details).toEqual({ country: 'FR', serveable: false, hasIps: false });
      const cn = await svc.call('POST', '/v1/async/task', {
        taskType: 'CHATBOT_A',
        payload: { prompt: 'x', country: 'CN' },
      });
      expect(cn.status).toBe(422);
      expect(cn.body.error.code).toBe('REGION_UNSUPPORTED');
    });
  });

  describe('ASSISTANT_A', () => {
    it('completes with publisher URLs resolved from the grounding redirects', async () => {
      const r = await runTask(svc, { taskType: 'ASSISTANT_A', payload: { prompt: 'eiffel tower height' } });
      expect(r.task.status).toBe('COMPLETED');
      const { markdown, sources } = r.response as { markdown: string; sources: Source[] };
      expect(sources.map((s) => s.position)).toEqual([1, 2, 3]);
      for (const s of sources) {
        expect(s.url).toMatch(/^https:\/\/[a-z.]+\/eiffel-tower-height-\d$/);
        expect(s.label).toBe(new URL(s.url).hostname);
      }
      expect(markdown).toMatch(/^eiffel tower height [^[]+\.\[1\] [^[]+\.\[2\]\[3\] [^[]+\.\[1\]$/);
      expect(r.credits).toEqual({ creditsToCharge: 2, creditsCharged: 2 });
    });

    it('places markers by UTF-8 byte offsets in a Korean answer', async () => {
      const r = await runTask(svc, { taskType: 'ASSISTANT_A', payload: { prompt: '에펠탑 높이' } });
      expect(r.task.status).toBe('COMPLETED');
      expect(r.response.markdown).toMatch(
        /^에펠탑 높이[^[]+니다\.\[1\] 에펠탑 높이[^[]+니다\.\[2\]\[3\] 에펠탑 높이[^[]+니다\.\[1\]$/,
      );
      // Long (Korean-slug) redirect tokens still resolve to the publisher page, not the title fallback.
      for (const s of r.response.sources as Source[])
        expect(s.url).toMatch(/^https:\/\/[a-z.]+\/(%[0-9A-F]{2})+-(%[0-9A-F]{2})+-\d$/);
    });

    it('honours rawResponse, ignores html, and keeps both redirect and publisher URL in raw', async () => {
      const r = await runTask(svc, {
        taskType: 'ASSISTANT_A',
        payload: { prompt: 'louvre opening hours', include: { rawResponse: true, html: true } },
      });
      expect(r.task.status).toBe('COMPLETED');
      expect(r.response.html).toBeUndefined();
      expect(typeof r.response.markdown).toBe('string');
      const raw = r.response.rawResponse as {
        groundingChunks: Array<{ uri: string; url: string; resolution: string }>;
      };
      // Three cited chunks and one the search returned that no support cites (a retrieved source).
      expect(raw.groundingChunks).toHaveLength(4);
      expect(r.response.retrievedSources).toHaveLength(1);
      for (const c of raw.groundingChunks) {
        expect(c.uri).toMatch(/\/grounding-api-redirect\//);
        expect(c.resolution).toBe('redirect');
        expect(c.url).toMatch(/^https:\/\//);
      }
      expect(JSON.stringify(r)).not.toMatch(/gemini-sandbox-key/);
    });

    it('markdown:false drops markdown', async () => {
      const r = await runTask(svc, {
        taskType: 'ASSISTANT_A',
        payload: { prompt: 'louvre opening hours', include: { markdown: false } },
      });
      expect(r.task.status).toBe('COMPLETED');
      expect(r.response.markdown).toBeUndefined();
      expect(r.response.text.length).toBeGreaterThan(10);
    });

    it('sandbox:empty (finishReason OTHER, no text) is ENGINE_NO_RESULT', async () => {
      const r = await runTask(svc, { taskType: 'ASSISTANT_A', payload: { prompt: 'nothing sandbox:empty' } });
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_NO_RESULT: /);
    });

    it('sandbox:captcha (429 RESOURCE_EXHAUSTED) fails with ENGINE_FAILED after retries', async () => {
      const r = await runTask(svc, { taskType: 'ASSISTANT_A', payload: { prompt: 'quota sandbox:captcha' } });
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_FAILED: /);
    });

    it('sandbox:flaky=1 completes on the retry', async () => {
      const r = await runTask(svc, { taskType: 'ASSISTANT_A', payload: { prompt: 'flaky gemini sandbox:flaky=1' } });
      expect(r.task.status).toBe('COMPLETED');
    });

    it('sandbox:timeout is ENGINE_TIMEOUT', async () => {
      const r = await runTask(svc, { taskType: 'ASSISTANT_A', payload: { prompt: 'slow gemini sandbox:timeout' } });
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_TIMEOUT: /);
    });
  });
});

describe('CHATBOT_A in api mode', () => {
  let svc: RunningService;
  beforeAll(async () => {
    const config = writeConfig(tempDir(), {
      engines: { CHATBOT_A: { mode: 'api', upstream: { apiKey: 'sk-api-mode-key-0123456789' } } },
    });
    svc = await startService({ AEQ_CONFIG: config, AEQ_ENGINE_TIMEOUT_MS: '1500' });
  });
  afterAll(() => svc.stop());

  it('authenticates with upstream.apiKey (no account) and serves a country without accounts', async () => {
    // GB has exit addresses but no CHATBOT_A accounts: only servable because api mode needs none.
    const r = await runTask(svc, {
      taskType: 'CHATBOT_A',
      payload: { prompt: 'uk train strikes', country: 'GB', include: { rawResponse: true } },
    });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.sources).toHaveLength(3);
    expect(JSON.stringify(r)).not.toMatch(/sk-/);
  });
});
