import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';
import { CHROMIUM_PATH, chromiumAvailable } from './chromium.js';

interface Src {
  position: number;
  url: string;
  label: string;
}

const FAST = { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 };

/**
 * End to end: the real service, its workers and the sandbox. The `sandbox:js` pages deliver the
 * answer by script after load (Google AI Mode streaming in, Naver's lazy AI briefing): the engines
 * configured with `transport: "browser"` read it, the same prompt over plain HTTP does not.
 */
describe.skipIf(!chromiumAvailable())('browser transport engines through the service', () => {
  let browserSvc: RunningService;
  let httpSvc: RunningService;
  const logLines: string[] = [];

  beforeAll(async () => {
    const config = writeConfig(tempDir(), {
      scheduler: FAST,
      // A shorter stability window than the real pages need: the sandbox streams its two parts 150 ms apart.
      engines: Object.fromEntries(
        ['AIMODE', 'SEARCH_B_AI_BRIEF', 'SEARCH_A', 'SEARCH_A_SERP', 'SEARCH_B_AI_TAB'].map((t) => [
          t,
          { transport: 'browser', upstream: { options: { browserStableMs: 700 } } },
        ]),
      ),
    });
    [browserSvc, httpSvc] = await Promise.all([
      startService({ AEQ_CONFIG: config, AEQ_CHROMIUM_PATH: CHROMIUM_PATH, AEQ_BROWSER_PAGES: '2' }, { logLines }),
      startService({ AEQ_CONFIG: writeConfig(tempDir(), { scheduler: FAST }) }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([browserSvc?.stop(), httpSvc?.stop()]);
  });

  it('AIMODE in the browser waits for the streamed answer and completes with its sources', async () => {
    const r = await runTask(browserSvc, {
      taskType: 'AIMODE',
      payload: { prompt: 'how to descale a kettle sandbox:js', country: 'US' },
    });
    expect(r.task).toMatchObject({ taskType: 'AIMODE', status: 'COMPLETED' });
    const res = r.response;
    expect(res.text).not.toMatch(/Thinking/);
    // Both streamed parts: the opening prose and the key points that came 150 ms later.
    expect(res.markdown).toMatch(/^### Key points$/m);
    expect(res.markdown).toMatch(/^1\. /m);
    const sources = res.sources as Src[];
    expect(sources.length).toBeGreaterThanOrEqual(2);
    expect(sources.map((s) => s.position)).toEqual(sources.map((_, i) => i + 1));
    for (const s of sources) expect(s.url).toMatch(/^https:\/\/[^#]+$/);
    expect(logLines.some((l) => l.includes('chromium launched'))).toBe(true);

    // The directive changes the delivery, not the answer: the plain page of the same prompt says the same.
    const plain = await runTask(httpSvc, {
      taskType: 'AIMODE',
      payload: { prompt: 'how to descale a kettle', country: 'US' },
    });
    expect(plain.task.status).toBe('COMPLETED');
    expect(res.text).toBe(plain.response.text);
    expect(res.sources).toEqual(plain.response.sources);
  });

  it('AIMODE over plain HTTP sees only the "Thinking" placeholder and ends ENGINE_TIMEOUT', async () => {
    const r = await runTask(httpSvc, {
      taskType: 'AIMODE',
      payload: { prompt: 'how to descale a kettle sandbox:js', country: 'US' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_TIMEOUT: /);
  });

  it('SEARCH_B_AI_BRIEF in the browser reads the lazily loaded briefing with its sources', async () => {
    const r = await runTask(browserSvc, {
      taskType: 'SEARCH_B_AI_BRIEF',
      payload: { prompt: '전기포트 세척 방법 sandbox:js' },
    });
    expect(r.task).toMatchObject({ taskType: 'SEARCH_B_AI_BRIEF', status: 'COMPLETED' });
    expect(r.response.text).toMatch(/\p{Script=Hangul}/u);
    expect(r.response.markdown).toMatch(/\[2\]\[3\]/);
    const sources = r.response.sources as Src[];
    expect(sources.map((s) => s.position)).toEqual([1, 2, 3, 4]);
    expect(sources[0]?.url).toMatch(/^https:\/\/blog\.naver\.com\/[\w-]+\/\d+$/);
    expect(sources.every((s) => !/search\.naver\.com|keep\.naver\.com/.test(s.url))).toBe(true);

    const plain = await runTask(httpSvc, { taskType: 'SEARCH_B_AI_BRIEF', payload: { prompt: '전기포트 세척 방법' } });
    expect(r.response.text).toBe(plain.response.text);
  });

  it('SEARCH_B_AI_BRIEF over plain HTTP finds results without a briefing: ENGINE_NO_RESULT', async () => {
    const r = await runTask(httpSvc, {
      taskType: 'SEARCH_B_AI_BRIEF',
      payload: { prompt: '전기포트 세척 방법 sandbox:js' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_NO_RESULT: /);
  });

  it('in the browser, a query without a briefing still ends ENGINE_NO_RESULT once the page is still', async () => {
    const r = await runTask(browserSvc, {
      taskType: 'SEARCH_B_AI_BRIEF',
      payload: { prompt: '네이버 홈페이지 sandbox:js' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_NO_RESULT: /);
  });

  it('in the browser, the sorry page is a block: ENGINE_FAILED after every attempt met it', async () => {
    const r = await runTask(browserSvc, {
      taskType: 'AIMODE',
      payload: { prompt: 'kettle limescale sandbox:captcha', country: 'US' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_FAILED: /);
    expect(
      logLines.filter((l) => l.includes('engine attempt failed') && l.includes('UPSTREAM_BLOCKED')).length,
    ).toBeGreaterThanOrEqual(1);
  });

  it('SEARCH_A, SEARCH_A_SERP and SEARCH_B_AI_TAB read the same answers from rendered pages as over HTTP', async () => {
    const cases = [
      { taskType: 'SEARCH_A', payload: { prompt: 'cast iron skillet care sandbox:aio', country: 'US' } },
      { taskType: 'SEARCH_A_SERP', payload: { query: 'cast iron skillet care', page: 2, country: 'KR' } },
      { taskType: 'SEARCH_B_AI_TAB', payload: { prompt: '무쇠 팬 관리법' } },
    ];
    const results = await Promise.all(
      cases.map((envelope) => Promise.all([runTask(browserSvc, envelope), runTask(httpSvc, envelope)])),
    );
    for (const [i, [viaBrowser, viaHttp]] of results.entries()) {
      const engine = cases[i]?.taskType;
      expect(viaBrowser.task.status, engine).toBe('COMPLETED');
      // The exit address is leased from the pool: a task without a country may go out from another one each time.
      const sameExit = (r: { region?: { exit?: string } }) => ({ ...r, region: { ...r.region, exit: 'any' } });
      expect(viaBrowser.response.region?.exit, engine).toMatch(/^[A-Z]{2}$/);
      expect(sameExit(viaBrowser.response), engine).toEqual(sameExit(viaHttp.response));
    }
  });

  it('a config asking the browser for an engine without a browser path is refused at start-up', async () => {
    const config = writeConfig(tempDir(), { engines: { FORUM: { transport: 'browser' } } });
    await expect(startService({ AEQ_CONFIG: config })).rejects.toThrow(
      /FORUM\.transport: "browser" is available only for/,
    );
  });
});
