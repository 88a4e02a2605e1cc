import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, startService, tempDir, type RunningService } from '../helpers/service.js';

/** The engines that need a browser say so once when Chromium is missing. */

const BROWSER_ENGINES = ['AIMODE', 'SEARCH_A', 'SEARCH_A_SERP', 'SEARCH_B_AI_BRIEF', 'SEARCH_B_AI_TAB'];

describe('the default configuration against the real upstreams', () => {
  let svc: RunningService;
  const logLines: string[] = [];
  beforeAll(async () => {
    svc = await startService({ AEQ_SANDBOX: '0', AEQ_CHROMIUM_PATH: '/nonexistent/chromium' }, { logLines });
  });
  afterAll(() => svc.stop());

  it('drives the engines whose real answers need JavaScript through the browser', () => {
    for (const t of BROWSER_ENGINES) expect(svc.app.config.engines[t as 'SEARCH_A'].transport).toBe('browser');
    expect(svc.app.config.engines.SEARCH_C_SEARCH.transport).toBe('http');
    expect(svc.app.config.engines.WEB_SCRAPE.transport).toBe('http');
  });

  it('starts without Chromium and says once, at start-up, which engines cannot serve and why', () => {
    const warnings = logLines
      .map((l) => JSON.parse(l) as { level: number; msg: string; engines?: string[]; reason?: string })
      .filter((l) => l.engines);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe(40);
    expect([...(warnings[0]?.engines ?? [])].sort()).toEqual(BROWSER_ENGINES);
    expect(warnings[0]?.reason).toMatch(/Chromium not found at \/nonexistent\/chromium/);
  });

  it('/capacity shows the same, and the engines without a browser are unaffected', async () => {
    const r = await svc.call('GET', '/capacity');
    expect(r.status).toBe(200);
    for (const t of BROWSER_ENGINES) {
      const e = r.body[t.toLowerCase()];
      expect(e.transport).toBe('browser');
      expect(e.unavailable).toMatch(
        /Chromium not found at \/nonexistent\/chromium.*AEQ_CHROMIUM_PATH.*transport is "browser"/,
      );
      for (const c of Object.values(e.countries) as Array<{ serveable: boolean }>) expect(c.serveable).toBe(false);
    }
    expect(r.body.search_c_search.unavailable).toBeUndefined();
    expect(r.body.search_c_search.countries.US.serveable).toBe(true);
  });
});

describe('a task for an engine that cannot serve', () => {
  let svc: RunningService;
  beforeAll(async () => {
    const config = fastConfig(tempDir(), { engines: { SEARCH_A: { transport: 'browser' } } });
    svc = await startService({ AEQ_CONFIG: config, AEQ_CHROMIUM_PATH: '/nonexistent/chromium' });
  });
  afterAll(() => svc.stop());

  it('is refused at submit with ENGINE_UNAVAILABLE and the reason, instead of queued to fail', async () => {
    const r = await svc.call('POST', '/v1/async/task', { taskType: 'SEARCH_A', payload: { query: 'standing desks' } });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('ENGINE_UNAVAILABLE');
    expect(r.body.error.details).toEqual({
      engine: 'SEARCH_A',
      reason: 'NO_BROWSER',
      message: expect.stringMatching(/Chromium not found at \/nonexistent\/chromium/),
    });
  });

  it('the sandbox keeps plain HTTP for the other Google engines unless the config asks for the browser', () => {
    expect(svc.app.config.engines.SEARCH_A.transport).toBe('browser');
    expect(svc.app.config.engines.AIMODE.transport).toBe('http');
    expect(svc.app.config.engines.AIMODE.unavailable).toBeUndefined();
  });
});
