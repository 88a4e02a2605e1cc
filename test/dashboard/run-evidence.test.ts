import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorScheduler } from '../../src/queue/monitor-scheduler.js';
import { CHROMIUM_PATH, chromiumAvailable } from '../browser/chromium.js';
import { TEST_KEY, fastConfig, startService, tempDir, type RunningService } from '../helpers/service.js';
import { builtDashboard, launchChromium, screenshot, signIn } from './dashboard-rig.js';

const INTERNAL = 'internal-token-run-evidence-0123';

interface Listed {
  name: string;
  kind: string;
  sha256: string;
  url: string;
}

interface RunAnswer {
  taskId: string;
  engine: string;
}

/**
 * The evidence of a monitor run's answers in the dashboard (docs/contract.md#artifacts), in the system Chromium
 * against the real service: a monitor on a browser engine (AIMODE, whose tasks keep raw.json, page.html and
 * screenshot.png) and an API engine (raw.json only) runs once; its latest answers list each task's artefacts as
 * links, a click saves the very bytes the service kept, fetched with the key in a header (never in a URL), and
 * another account's key cannot fetch them.
 */
describe.runIf(chromiumAvailable())("a monitor run's evidence in the dashboard", { timeout: 120_000 }, () => {
  let svc: RunningService;
  let browser: Browser;
  let page: Page;
  let monitorId = '';
  let answers: RunAnswer[] = [];
  const requests: Request[] = [];

  beforeAll(async () => {
    const dashboard = await builtDashboard();
    svc = await startService({
      AEQ_CONFIG: fastConfig(tempDir(), { engines: { AIMODE: { transport: 'browser' } } }),
      AEQ_DASHBOARD_DIR: dashboard,
      AEQ_CHROMIUM_PATH: CHROMIUM_PATH,
      AEQ_INTERNAL_TOKEN: INTERNAL,
    });
    const created = await svc.call('POST', '/v1/monitors', {
      name: 'Evidence',
      prompts: ['is Nike good for running'],
      engines: ['ANSWER_ENGINE_A', 'AIMODE'],
      brand: { name: 'Nike' },
    });
    expect(created.status).toBe(201);
    monitorId = created.body.monitor.id;
    expect((await svc.call('POST', `/v1/monitors/${monitorId}/runs`)).status).toBe(202);
    // The scheduler's passes end the run once the worker has answered its tasks.
    const scheduler = svc.app.monitors as MonitorScheduler;
    const deadline = Date.now() + 60_000;
    for (;;) {
      await scheduler.runOnce();
      const runs = (await svc.call('GET', `/v1/monitors/${monitorId}/runs?include=results`)).body.runs as Array<{
        status: string;
        results?: RunAnswer[];
      }>;
      if (runs[0]?.status === 'completed') {
        answers = runs[0].results ?? [];
        break;
      }
      if (Date.now() > deadline) throw new Error('the run did not end within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(answers.map((a) => a.engine).sort()).toEqual(['AIMODE', 'ANSWER_ENGINE_A']);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('request', (r) => requests.push(r));
    await signIn(page, svc.url, TEST_KEY);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  const listed = async (taskId: string, key = TEST_KEY) =>
    svc.call('GET', `/v1/async/task/${taskId}/artifacts`, undefined, { authorization: `Bearer ${key}` });

  it("links each answer's artefacts, and a click saves the bytes the service kept", async () => {
    await page.goto(`${svc.url}/dashboard/#/monitors/${monitorId}`);
    await page.locator('button.prompt-toggle', { hasText: 'is Nike good for running' }).click();
    await page.waitForSelector('.run-answer .evidence[data-evidence="listed"]');
    await page.waitForFunction(() => document.querySelectorAll('.evidence[data-evidence="listed"]').length === 2);

    for (const a of answers) {
      const kept = (await listed(a.taskId)).body.artifacts as Listed[];
      const card = page.locator('.run-answer', { has: page.locator(`a[href="#/tasks/${a.taskId}"]`) });
      const links = card.locator('.evidence a');
      expect(await links.evaluateAll((ls) => ls.map((l) => l.textContent))).toEqual(kept.map((k) => k.name));
      expect(await links.evaluateAll((ls) => ls.map((l) => l.getAttribute('href')))).toEqual(kept.map((k) => k.url));
      // The browser engine kept its page and its picture; the API engine its payload only.
      expect(kept.map((k) => k.name)).toEqual(
        a.engine === 'AIMODE' ? ['raw.json', 'page.html', 'screenshot.png'] : ['raw.json'],
      );
    }
    await screenshot(page, 'monitor-evidence');

    const aimode = answers.find((a) => a.engine === 'AIMODE') as RunAnswer;
    const kept = (await listed(aimode.taskId)).body.artifacts as Listed[];
    for (const name of ['page.html', 'screenshot.png']) {
      const link = page.locator(`.run-answer .evidence a[data-artifact="${name}"][href*="${aimode.taskId}"]`);
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe(`${aimode.taskId}-${name}`);
      const bytes = fs.readFileSync(await download.path());
      const sha = createHash('sha256').update(bytes).digest('hex');
      expect(sha).toBe(kept.find((k) => k.name === name)?.sha256);
    }
    // The saved page never ran in the dashboard: the dashboard is still the page shown, the key still in its tab.
    expect(new URL(page.url()).pathname).toBe('/dashboard/');

    // The bytes came with the key in a header; no address the page asked for holds it.
    const fetched = requests.filter((r) => r.url().includes(`/v1/async/task/${aimode.taskId}/artifacts/`));
    expect(fetched.length).toBeGreaterThanOrEqual(2);
    for (const r of fetched) expect(r.headers().authorization).toBe(`Bearer ${TEST_KEY}`);
    for (const r of requests) expect(r.url()).not.toContain(TEST_KEY);
  });

  it("another account's key cannot list or fetch them", async () => {
    const internal = { authorization: `Bearer ${INTERNAL}` };
    expect((await svc.call('POST', '/internal/accounts', { name: 'other' }, internal)).status).toBe(201);
    const otherKey = (await svc.call('POST', '/internal/keys', { account: 'other' }, internal)).body.key as string;
    for (const a of answers) {
      const list = await listed(a.taskId, otherKey);
      expect(list.status).toBe(404);
      expect(list.body.error.code).toBe('RESOURCE_NOT_FOUND');
      const bytes = await svc.raw('GET', `/v1/async/task/${a.taskId}/artifacts/raw.json`, undefined, {
        authorization: `Bearer ${otherKey}`,
      });
      expect(bytes.status).toBe(404);
      expect(JSON.stringify(bytes.body)).not.toContain('"raw"');
    }
    // Followed without a key, as a person's middle click would, the link's address answers 401.
    const aimode = answers.find((a) => a.engine === 'AIMODE') as RunAnswer;
    const bare = await svc.raw('GET', `/v1/async/task/${aimode.taskId}/artifacts/page.html`);
    expect(bare.status).toBe(401);
    // And in the dashboard signed in as the other account, the monitor and its answers are not there to link.
    const other = await browser.newPage();
    await signIn(other, svc.url, otherKey);
    await other.goto(`${svc.url}/dashboard/#/monitors/${monitorId}`);
    await other.waitForSelector('.error[role="alert"]');
    expect(await other.locator('.evidence a').count()).toBe(0);
    await other.close();
  });
});
