import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorScheduler } from '../../src/queue/monitor-scheduler.js';
import { chromiumAvailable } from '../browser/chromium.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { until } from '../helpers/wait.js';
import { TEST_KEY, fastConfig, runTask, startService, tempDir, type RunningService } from '../helpers/service.js';
import { builtDashboard, launchChromium, screenshot, signIn } from './dashboard-rig.js';

/**
 * The context around a task in the system Chromium: the explorer's country column and text search; a batch page that
 * lists each item's engine, region, question and status, with its failures in the progress bar (a red segment and a
 * count); a monitor run's batch labelled with its monitor; and a task's webhook delivery log as a table.
 */
describe.runIf(chromiumAvailable())('context in the dashboard', () => {
  let svc: RunningService;
  let hooks: Receiver;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const dashboard = await builtDashboard();
    hooks = await startReceiver();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_DASHBOARD_DIR: dashboard });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, svc.url, TEST_KEY);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await hooks?.close();
  });

  const cells = (selector: string) =>
    page.$$eval(selector, (rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
    );

  it('lists a batch item by engine, country, question and status; its failures show in the bar', async () => {
    const items = [
      { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'context ok' } },
      { taskType: 'SEARCH_A_SERP', payload: { query: 'context umbrellas', country: 'GB' } },
      { taskType: 'SEARCH_C_SEARCH', payload: { query: 'context fails sandbox:error' } },
    ];
    const r = await svc.call('POST', '/v1/async/task/batch', items);
    expect(r.status).toBe(200);
    const batchId = r.body.batch.id as string;
    await page.goto(`${svc.url}/dashboard/#/batches/${batchId}`);
    await page.waitForSelector('article.batch[data-completed="true"]', { timeout: 30_000 });
    const rows = await cells('table.batch-items tbody tr');
    expect(rows).toEqual([
      ['0', 'ANSWER_ENGINE_A', '—', 'context ok', 'COMPLETED'],
      ['1', 'SEARCH_A_SERP', 'GB', 'context umbrellas', 'COMPLETED'],
      ['2', 'SEARCH_C_SEARCH', '—', 'context fails sandbox:error', 'FAILED'],
    ]);
    const bar = page.locator('article.batch .card [role="progressbar"]');
    expect(await bar.getAttribute('aria-valuetext')).toBe('3 of 3, 1 failed');
    expect(await bar.locator('.progress-text').textContent()).toBe('3 / 3 · 1 failed');
    // The red segment is the last third of the bar.
    const [whole, red] = await Promise.all([bar.boundingBox(), bar.locator('.progress-failed').boundingBox()]);
    expect(red?.width).toBeCloseTo((whole?.width ?? 0) / 3, 0);
    expect(red && whole ? red.x + red.width : 0).toBeCloseTo((whole?.x ?? 0) + (whole?.width ?? 0), 0);
    await screenshot(page, 'batch-items-context');

    // The same in the batch list, and in the explorer the country of each task.
    await page.goto(`${svc.url}/dashboard/#/batches`);
    const listed = page.locator(`table.batches tr[data-batch-id="${batchId}"] [role="progressbar"]`);
    await listed.waitFor();
    expect(await listed.getAttribute('aria-valuetext')).toBe('3 of 3, 1 failed');
    expect(await page.locator(`table.batches tr[data-batch-id="${batchId}"] .monitor-run`).count()).toBe(0);
    await page.goto(`${svc.url}/dashboard/#/tasks`);
    await page.waitForSelector('table.tasks-table tbody tr');
    const tasks = await cells('table.tasks-table tbody tr');
    expect(tasks.find((t) => t[4] === 'context umbrellas')?.slice(1, 4)).toEqual(['SEARCH_A_SERP', 'GB', 'COMPLETED']);
    expect(tasks.find((t) => t[4] === 'context ok')?.slice(1, 4)).toEqual(['ANSWER_ENGINE_A', '—', 'COMPLETED']);

    // The explorer's text search: what was asked, ignoring case; the filter stays in the address.
    await page.fill('form.filters input[name="q"]', 'UMBRELLAS');
    await page.click('form.filters button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll('table.tasks-table tbody tr').length === 1);
    expect((await cells('table.tasks-table tbody tr')).map((t) => t[4])).toEqual(['context umbrellas']);
    expect(page.url()).toContain('q=UMBRELLAS');
    await page.fill('form.filters input[name="q"]', 'no task asks this');
    await page.click('form.filters button[type="submit"]');
    await page.getByText('No task matches these filters.').waitFor();
    expect(await page.locator('table.tasks-table tbody tr').count()).toBe(0);
  });

  it("labels a monitor run's batch with its monitor", async () => {
    const created = await svc.call('POST', '/v1/monitors', {
      name: 'Labelled monitor',
      prompts: ['is Nike good for running'],
      engines: ['CHATBOT_A'],
      brand: { name: 'Nike' },
    });
    const monitorId = created.body.monitor.id as string;
    expect((await svc.call('POST', `/v1/monitors/${monitorId}/runs`)).status).toBe(202);
    const scheduler = svc.app.monitors as MonitorScheduler;
    const run = await until(
      'the run completed',
      async () => {
        await scheduler.runOnce();
        return (await svc.call('GET', `/v1/monitors/${monitorId}/runs`)).body.runs[0];
      },
      (x) => x?.status === 'completed',
    );
    expect(run.batchId).toMatch(/^[0-9a-f-]{36}$/);
    await page.goto(`${svc.url}/dashboard/#/batches`);
    const label = page.locator(`table.batches tr[data-batch-id="${run.batchId}"] .batch-origin`);
    await label.waitFor();
    expect(await label.locator('.monitor-run').textContent()).toBe('monitor run');
    expect(await label.locator('a').textContent()).toBe('Labelled monitor');
    expect(await label.locator('a').getAttribute('href')).toBe(`#/monitors/${monitorId}`);
    await page.goto(`${svc.url}/dashboard/#/batches/${run.batchId}`);
    await page.waitForSelector('.batch-run .monitor-run');
    expect(await page.textContent('.batch-run')).toContain('the run started by hand');
    expect(await cells('table.batch-items tbody tr')).toEqual([
      ['0', 'CHATBOT_A', 'US', 'is Nike good for running', 'COMPLETED'],
    ]);
    // The monitor's runs table leads to the batch.
    await page.goto(`${svc.url}/dashboard/#/monitors/${monitorId}`);
    const link = page.locator(`table.runs tbody tr[data-run-id="${run.id}"] a[href="#/batches/${run.batchId}"]`);
    await link.waitFor();
  });

  it("renders a task's webhook delivery log as a table", async () => {
    const done = await runTask(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'context with a webhook' },
      webhook: { url: `${hooks.url}/task-hook?token=receiver-own` },
    });
    const log = await until(
      'the delivery is logged',
      async () => (await svc.call('GET', `/v1/async/task/${done.task.id}/deliveries`)).body,
      (b) => b.webhook?.status === 'delivered',
    );
    await page.goto(`${svc.url}/dashboard/#/tasks/${done.task.id}`);
    const section = page.getByRole('region', { name: 'Webhook deliveries' });
    await section.locator('table.delivery-attempts tbody tr').first().waitFor();
    expect(await section.locator('.delivery-state code').textContent()).toBe(new URL(hooks.url).host);
    expect(await section.locator('.delivery-status').textContent()).toBe('delivered');
    const attempts = await cells('table.delivery-attempts tbody tr');
    expect(attempts).toHaveLength(log.webhook.attempts.length);
    expect(attempts[0]?.slice(0, 2)).toEqual(['first', '1']);
    expect(attempts[0]?.slice(3, 6)).toEqual(['delivered', '200', '—']);
    expect(attempts[0]?.[6]).toMatch(/^\d+ ms$/);
    // Nothing of the URL but its host: not its path, nor the token of its query.
    expect(await section.textContent()).not.toContain('receiver-own');
    await screenshot(page, 'task-deliveries');
  });

  it('renders the extended source-influence result: components, requirements, brands and shares', async () => {
    const r = await svc.call('POST', '/v1/source-influence', {
      answer: 'Acme Glide is the best pick for beginners. Nike Pegasus is a solid second choice for daily runs.',
      prompt: 'best running shoes under $150',
      citations: [],
      analysis: {
        version: 1,
        entities: [
          { id: 'acme', name: 'Acme', role: 'brand' },
          { name: 'Nike', role: 'competitor' },
        ],
      },
    });
    expect(r.status).toBe(202);
    const view = await until(
      'the analysis completed',
      async () => (await svc.call('GET', `/v1/async/task/${r.body.task.id}`)).body,
      (b) => b.task?.status === 'COMPLETED',
    );
    const a = view.response.analysis;
    await page.goto(`${svc.url}/dashboard/#/tasks/${r.body.task.id}`);
    const section = page.getByRole('region', { name: 'Extended analysis' });
    await section.waitFor();
    expect(await section.getAttribute('data-status')).toBe(a.status);
    expect(await section.locator('[data-component="brandDecisions"] em').textContent()).toBe(
      a.components.brandDecisions,
    );
    expect(await section.locator('.extended-errors li').count()).toBe(a.errors.length);
    expect(await section.locator('table.requirements tbody tr').count()).toBe(a.questionRequirements.items.length);
    const brands = await cells('table.brand-decisions tbody tr');
    expect(brands.map((b) => [b[0]?.replace(' top pick', ''), b[1], b[2]])).toEqual(
      a.brandDecisions.entities.map((e: any) => [e.name, e.role, String(e.mentionCount)]),
    );
    expect(await section.locator('[data-shares="By source type"]').textContent()).toContain('unattributed 100.0%');
    await screenshot(page, 'source-influence-extended');
  });
});
