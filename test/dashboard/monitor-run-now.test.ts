import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorScheduler } from '../../src/queue/monitor-scheduler.js';
import { chromiumAvailable } from '../browser/chromium.js';
import { TEST_KEY, fastConfig, startService, tempDir, type RunningService } from '../helpers/service.js';
import { builtDashboard, launchChromium, screenshot, signIn } from './dashboard-rig.js';

/**
 * The monitor page's Run now button in the system Chromium: a monitor that has never run starts a run at once, the
 * new run shows in the runs table marked as just started with its progress, the button waits while it goes on, and
 * the row reaches its end with every task counted.
 */
describe.runIf(chromiumAvailable())('run a monitor now from the dashboard', () => {
  let svc: RunningService;
  let browser: Browser;
  let page: Page;
  let monitorId = '';

  beforeAll(async () => {
    const dashboard = await builtDashboard();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_DASHBOARD_DIR: dashboard });
    const created = await svc.call('POST', '/v1/monitors', {
      name: 'Run me now',
      prompts: ['is Nike good for running', 'best marathon shoes'],
      engines: ['ANSWER_ENGINE_A', 'CHATBOT_A'],
      brand: { name: 'Nike' },
    });
    expect(created.status).toBe(201);
    monitorId = created.body.monitor.id;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, svc.url, TEST_KEY);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('starts a run and shows its progress to its end', async () => {
    await page.goto(`${svc.url}/dashboard/#/monitors/${monitorId}`);
    await page.getByText('No run yet.').waitFor();
    const button = page.getByRole('button', { name: 'Run now' });
    expect(await button.isEnabled()).toBe(true);
    await button.click();
    const row = page.locator('table.runs tbody tr', { hasText: 'started now' });
    await row.waitFor();
    const runs = (await svc.call('GET', `/v1/monitors/${monitorId}/runs`)).body.runs as Array<{ id: string }>;
    expect(runs).toHaveLength(1);
    expect(await row.getAttribute('data-run-id')).toBe(runs[0]?.id);
    // The scheduler's passes end the run once the worker has answered its four tasks (its own timer does too).
    const scheduler = svc.app.monitors as MonitorScheduler;
    const timer = setInterval(() => void scheduler.runOnce(), 200);
    try {
      await page.waitForSelector('table.runs tbody tr[data-status="completed"]', { timeout: 30_000 });
    } finally {
      clearInterval(timer);
    }
    const progress = row.locator('[role="progressbar"]');
    expect(await progress.getAttribute('aria-valuetext')).toBe('4 of 4');
    await page.waitForFunction(() => !(document.querySelector('button.run-now') as HTMLButtonElement).disabled);
    await screenshot(page, 'monitor-run-now');
    // Read again later, the run still says it was started by hand.
    await page.reload();
    const again = page.locator(`table.runs tbody tr[data-run-id="${runs[0]?.id}"]`);
    await again.waitFor();
    expect(await again.getAttribute('data-trigger')).toBe('manual');
    expect(await again.locator('.badge').textContent()).toBe('by hand');
  });
});
