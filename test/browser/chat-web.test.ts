import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';
import { CHROMIUM_PATH, chromiumAvailable } from './chromium.js';

interface Src {
  position: number;
  url: string;
  label: string;
}

const FAST = { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 };
/** The sandbox CHATBOT_A accounts' secrets, keys and sessions (engine-config.ts sandboxPools): never come back. */
const SECRET = /sk-sandbox-|sandbox-session-/;

/**
 * The web modes of the chat engines end to end: the real service with `transport: "browser"` for
 * CHATBOT_A (ChatGPT's UI with the account session, prompt typed into the composer) and
 * ANSWER_ENGINE_A (Perplexity's search page), against the sandbox's simulated UIs.
 */
describe.skipIf(!chromiumAvailable())('chat engines in web mode', () => {
  let svc: RunningService;
  const logLines: string[] = [];

  beforeAll(async () => {
    const web = { transport: 'browser', upstream: { options: { browserStableMs: 600 } } };
    const config = writeConfig(tempDir(), { scheduler: FAST, engines: { CHATBOT_A: web, ANSWER_ENGINE_A: web } });
    svc = await startService(
      { AEQ_CONFIG: config, AEQ_CHROMIUM_PATH: CHROMIUM_PATH, AEQ_BROWSER_PAGES: '2' },
      { logLines },
    );
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('CHATBOT_A types the prompt into ChatGPT and reads the streamed answer with its sources (US)', async () => {
    const r = await runTask(svc, {
      taskType: 'CHATBOT_A',
      payload: { prompt: 'best trail running shoes', country: 'US', include: { rawResponse: true } },
    });

    expect(r.error ?? null).toBeNull();
    expect(r.task).toMatchObject({ taskType: 'CHATBOT_A', status: 'COMPLETED' });
    const sources = r.response.sources as Src[];
    expect(sources.map((s) => s.position)).toEqual([1, 2, 3]);
    for (const s of sources) expect(s.url).toMatch(/^https:\/\/[^?]+$/);
    // All streamed chunks arrived: the heading and the list came after the first paragraph.
    expect(r.response.markdown).toMatch(/^### Details$/m);
    expect(r.response.markdown).toMatch(/^- best trail running shoes /m);
    expect(r.response.markdown).not.toMatch(/utm_source/);
    expect(r.response.text).toMatch(/^best trail running shoes /);
    expect(JSON.stringify(r)).not.toMatch(SECRET);
    expect(logLines.join('\n')).not.toMatch(SECRET);
  });

  it('CHATBOT_A answers a Korean prompt in Korean from a KR account', async () => {
    const r = await runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt: '서울 맛집 추천', country: 'KR' } });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.text).toMatch(/\p{Script=Hangul}{2,}/u);
    expect((r.response.sources as Src[]).length).toBe(3);
  });

  it('ANSWER_ENGINE_A reads the Perplexity search page with its numbered sources (US and KR)', async () => {
    const us = await runTask(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'how to descale a kettle', country: 'US' },
    });
    expect(us.task).toMatchObject({ taskType: 'ANSWER_ENGINE_A', status: 'COMPLETED' });
    const sources = us.response.sources as Src[];
    expect(sources.map((s) => s.position)).toEqual([1, 2, 3]);
    // Numbered by first citation: the first paragraph cites the stream's result [2], which becomes [1].
    expect(us.response.markdown).toMatch(/^how to descale a kettle .*\[1\]$/m);
    expect(us.response.capture).toBe('stream');
    expect(us.response.text.split('\n\n')).toHaveLength(3);

    const kr = await runTask(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: '전기포트 세척 방법', country: 'KR' },
    });
    expect(kr.task.status).toBe('COMPLETED');
    expect(kr.response.text).toMatch(/\p{Script=Hangul}{2,}/u);
    expect((kr.response.sources as Src[]).length).toBe(3);
  });

  it('a Cloudflare challenge fails both engines ENGINE_FAILED without leaking the session', {
    timeout: 120_000,
  }, async () => {
    const [chat, pplx] = await Promise.all([
      runTask(
        svc,
        { taskType: 'CHATBOT_A', payload: { prompt: 'compare e-bikes sandbox:captcha', country: 'US' } },
        90_000,
      ),
      runTask(
        svc,
        {
          taskType: 'ANSWER_ENGINE_A',
          payload: { prompt: 'compare e-bikes sandbox:captcha', country: 'US' },
        },
        90_000,
      ),
    ]);
    for (const r of [chat, pplx]) {
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_FAILED/);
    }
    expect(JSON.stringify(chat)).not.toMatch(SECRET);
    expect(logLines.join('\n')).not.toMatch(SECRET);
  });
});
