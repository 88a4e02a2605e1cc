import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../browser/chromium.js';
import { TEST_KEY, fastConfig, runTask, startService, tempDir, type RunningService } from '../helpers/service.js';
import { builtDashboard, launchChromium, screenshot, signIn } from './dashboard-rig.js';

/**
 * A failed task's page in the system Chromium says why, beside the fixed error string: the reason's sentence, its
 * code, whose side failed, the upstream host and the attempts made, for an upstream 5xx, a stream cut mid-answer and
 * a captcha on every attempt.
 */
describe.runIf(chromiumAvailable())('why a task failed, in the dashboard', () => {
  let svc: RunningService;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const dashboard = await builtDashboard();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_DASHBOARD_DIR: dashboard });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, svc.url, TEST_KEY);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  const text = async (l: Locator) => (await l.textContent())?.trim() ?? '';

  /** The failure section of a task's page, as a reader sees it. */
  async function shown(id: string) {
    await page.goto(`${svc.url}/dashboard/#/tasks/${id}`);
    const section = page.getByRole('region', { name: 'Why it failed' });
    await section.waitFor();
    return {
      error: await text(page.locator('.task-error')),
      message: await text(section.locator('.failure-message')),
      code: await text(section.locator('.failure-code')),
      origin: await text(section.locator('.failure-origin')),
      host: await text(section.locator('.failure-host')),
      attempts: await text(section.locator('.failure-attempts')),
    };
  }

  const cases = [
    {
      name: 'an upstream 5xx',
      envelope: { taskType: 'SEARCH_C_SEARCH', payload: { query: 'running shoes sandbox:error' } },
      code: 'UPSTREAM_ERROR',
      message: /bing answered HTTP 5\d\d/,
    },
    {
      name: 'a stream cut mid-answer',
      envelope: { taskType: 'CHATBOT_A', payload: { prompt: 'cut me off sandbox:cut' } },
      code: 'UPSTREAM_ERROR',
      message: /ended before response\.completed/,
    },
    {
      name: 'a captcha on every attempt',
      envelope: { taskType: 'SEARCH_A_SERP', payload: { query: 'umbrellas sandbox:captcha', country: 'GB' } },
      code: 'UPSTREAM_BLOCKED',
      message: /block or captcha page \(google: sorry_page/,
    },
  ];

  for (const c of cases) {
    it(`shows the reason of ${c.name}`, async () => {
      const r = await runTask(svc, c.envelope);
      expect(r.task.status).toBe('FAILED');
      const s = await shown(r.task.id);
      expect(s.error).toBe('ENGINE_FAILED: The engine request failed.');
      expect(s.message).toBe(r.failure.message);
      expect(s.message).toMatch(c.message);
      expect(s.code).toBe(c.code);
      expect(s.origin).toBe('the upstream');
      expect(s.host).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(s.attempts).toBe('3');
    });
  }

  it('a completed task has no failure section', async () => {
    const r = await runTask(svc, { taskType: 'SEARCH_C_SEARCH', payload: { query: 'running shoes' } });
    expect(r.task.status).toBe('COMPLETED');
    await page.goto(`${svc.url}/dashboard/#/tasks/${r.task.id}`);
    await page.locator('article.task dl.facts').first().waitFor();
    await page.getByText('COMPLETED').first().waitFor();
    expect(await page.getByRole('region', { name: 'Why it failed' }).count()).toBe(0);
    await screenshot(page, 'task-completed-no-failure');
  });

  it('leaves a screenshot of a failed task', async () => {
    const r = await runTask(svc, cases[2]!.envelope);
    await shown(r.task.id);
    expect(await screenshot(page, 'task-failure-reason')).toMatch(/task-failure-reason\.png$/);
  });
});
