import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorScheduler } from '../../src/queue/monitor-scheduler.js';
import { chromiumAvailable } from '../browser/chromium.js';
import {
  TEST_KEY,
  fastConfig,
  startService,
  steppedClock,
  tempDir,
  waitTerminal,
  type RunningService,
} from '../helpers/service.js';
import { until } from '../helpers/wait.js';
import { builtDashboard, launchChromium, screenshot, signIn } from './dashboard-rig.js';

const DAY = 86_400_000;
const RUNS = 3;

/**
 * The dashboard in the system Chromium against a sandbox service whose monitor has run on
 * three days (the clock stepped, never slept): sign in with the keyboard, open the monitor and count the charts'
 * points, read the latest answers with the brand marked, open a task beside its sources, follow a batch to its end,
 * read both analyses, and the same pages 390 pixels wide without sideways scrolling.
 */
describe.runIf(chromiumAvailable())('the dashboard in a browser', () => {
  // Three days back, so that after the three daily steps the service's time is the browser's (the explorer asks for
  // the tasks of the last hours by the browser's clock, as a person's would).
  const clock = steppedClock(Date.now() - RUNS * DAY);
  let svc: RunningService;
  let browser: Browser;
  let page: Page;
  let monitorId = '';

  const scheduler = () => svc.app.monitors as MonitorScheduler;
  const runsOf = async () => (await svc.call('GET', `/v1/monitors/${monitorId}/runs?limit=100`)).body.runs as any[];

  beforeAll(async () => {
    const dashboard = await builtDashboard();
    svc = await startService(
      { AEQ_CONFIG: fastConfig(tempDir()), AEQ_DASHBOARD_DIR: dashboard, AEQ_ENGINE_MAX_ATTEMPTS: '1' },
      { clock },
    );
    const created = await svc.call('POST', '/v1/monitors', {
      name: 'Running shoes',
      prompts: ['is Nike good for running', 'Adidas or Nike for trail running', 'best marathon shoes'],
      engines: ['ANSWER_ENGINE_A', 'CHATBOT_A'],
      countries: ['US', 'KR'],
      brand: { name: 'Nike', aliases: ['나이키'], domains: ['nike.com'] },
      competitors: [{ name: 'Adidas' }],
    });
    expect(created.status).toBe(201);
    monitorId = created.body.monitor.id;
    // Three daily runs: each slot taken, its twelve tasks run by the worker, the run ended.
    for (let day = 1; day <= RUNS; day++) {
      clock.advance(DAY);
      await until(
        `run ${day} ended`,
        async () => {
          await scheduler().runOnce();
          return runsOf();
        },
        (rs) => rs.length === day && rs.every((r) => r.status === 'completed'),
        30_000,
        100,
      );
    }
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, svc.url, TEST_KEY);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('signs in with a key kept in session storage only, never in a URL, and refuses a wrong one', async () => {
    expect(page.url()).not.toContain(TEST_KEY);
    expect(await page.evaluate(() => sessionStorage.getItem('aeq.apiKey'))).toBe(TEST_KEY);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    const other = await browser.newPage();
    await other.goto(`${svc.url}/dashboard/`);
    await other.fill('#api-key', 'not-the-key');
    await other.keyboard.press('Enter');
    await other.waitForSelector('#sign-in-error');
    expect(await other.textContent('#sign-in-error')).toContain('MISSING_API_KEY');
    await other.close();
  });

  it('opens the monitor with the keyboard and draws one point per run and a line per engine', async () => {
    await page.goto(`${svc.url}/dashboard/#/monitors`);
    const link = page.getByRole('link', { name: 'Running shoes' });
    await link.waitFor();
    // Tab to the monitor's link, then Enter: the page is usable without a mouse.
    for (let i = 0; i < 30 && !(await link.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('figure.chart canvas');
    const charts = await page.$$eval('figure.chart', (fs) =>
      fs.map((f) => ({
        points: f.getAttribute('data-points'),
        series: f.getAttribute('data-series'),
        rows: f.querySelectorAll('.chart-figures tbody tr').length,
        canvas: f.querySelectorAll('canvas').length,
      })),
    );
    // Mention rate and share of voice, then the search rate of the engines that say whether they searched (§6.9).
    expect(charts.slice(0, 2)).toEqual([
      { points: String(RUNS), series: '2', rows: RUNS, canvas: 1 },
      { points: String(RUNS), series: '2', rows: RUNS, canvas: 1 },
    ]);
    expect(charts).toHaveLength(3);
    expect(charts[2]).toEqual({ points: String(RUNS), series: '2', rows: RUNS, canvas: 1 });
    // The charts' figures are the service's: every answer names Nike in these prompts' sandbox answers but one.
    const api = (await svc.call('GET', `/v1/monitors/${monitorId}/metrics`)).body.series as any[];
    expect(api).toHaveLength(RUNS * 4);
    const domains = await page.$$eval('table.domains tbody tr', (rows) => rows.length);
    expect(domains).toBeGreaterThan(0);
    const runsShown = await page.$$eval('table.runs tbody tr', (rows) => rows.length);
    expect(runsShown).toBe(RUNS);

    // One country: the same number of points, a line per engine.
    await page.selectOption('select[name="country"]', 'KR');
    await page.waitForFunction(() => document.querySelector('figcaption')?.textContent?.includes('KR'));
    expect(await page.$eval('figure.chart', (f) => f.getAttribute('data-points'))).toBe(String(RUNS));
    await page.selectOption('select[name="country"]', '');
  });

  it('shows the latest answers per prompt with the brand marked where the figures counted it', async () => {
    const toggle = page.locator('button.prompt-toggle', { hasText: 'is Nike good for running' });
    await toggle.click();
    await page.waitForSelector('.prompt-answers .run-answer');
    const answers = await page.$$eval('.prompt-answers .run-answer', (as) => as.length);
    expect(answers).toBe(4);
    const marks = await page.$$eval('.prompt-answers mark.brand', (ms) => ms.map((m) => m.textContent));
    expect(marks.length).toBeGreaterThan(0);
    expect(new Set(marks)).toEqual(new Set(['Nike']));
    await screenshot(page, 'monitor-1280');
  });

  it('opens a task from the explorer, filtered by engine, with its answer beside its cited sources', async () => {
    await page.goto(`${svc.url}/dashboard/#/tasks`);
    await page.waitForSelector('table.tasks-table tbody tr');
    // Choosing changes nothing until the filters are applied (WCAG 3.2.2: no change of context on input).
    await page.selectOption('select[name="engine"]', 'ANSWER_ENGINE_A');
    expect(await page.evaluate(() => location.hash)).toBe('#/tasks');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => location.hash.includes('engine=ANSWER_ENGINE_A'));
    // The filtered page has come (a table again, after the loading state), holding that engine's tasks only.
    await page.waitForFunction(() => {
      const engines = [...document.querySelectorAll('table.tasks-table tbody tr td:nth-child(2)')];
      return engines.length > 0 && engines.every((td) => td.textContent === 'ANSWER_ENGINE_A');
    });
    const rows = await page.$$eval('table.tasks-table tbody tr', (rs) => rs.length);
    // The last run's tasks (three prompts, two countries): the runs before it are past the 24 hours.
    expect(rows).toBe(3 * 2);
    await page.locator('table.tasks-table tbody tr a').first().click();
    // The answer's Markdown is drawn once its renderer (a chunk of its own) has loaded.
    await page.waitForSelector('article.task .answer .markdown');
    const id = await page.getAttribute('article.task', 'data-task-id');
    const polled = (await svc.call('GET', `/v1/async/task/${id}`)).body;
    expect(polled.task.taskType).toBe('ANSWER_ENGINE_A');
    const sources = await page.$$eval('.sources li a', (as) => as.map((a) => a.getAttribute('href')));
    expect(sources).toEqual(polled.response.sources.map((s: any) => s.url));
    // Every citation marker of the Markdown is a button (adjacent ones too: "[2][3]")...
    const markers = (polled.response.markdown.match(/\[\d+\]/g) ?? []).length;
    expect(markers).toBeGreaterThan(0);
    expect(await page.$$eval('.markdown button.cite', (bs) => bs.length)).toBe(markers);
    expect(await page.textContent('.markdown')).not.toMatch(/\[\d+\]/);
    // ...and brings its source into focus.
    await page.locator('button.cite').first().click();
    expect(await page.evaluate(() => document.activeElement?.id)).toMatch(/^source-\d+$/);
    // Behind the answer: Sonar searched, names no query (unknown), and read one page it did not cite.
    expect(await page.textContent('.behind .searched')).toBe('Yes');
    expect(await page.$$eval('.behind ol.searches li', (ls) => ls.length)).toBe(0);
    const retrieved = await page.$$eval('.behind ol.retrieved li a', (as) => as.map((a) => a.getAttribute('href')));
    expect(retrieved).toEqual(polled.response.retrievedSources.map((s: any) => s.url));
    expect(retrieved.length).toBeGreaterThan(0);
    await screenshot(page, 'task-1280');
  });

  it('follows a batch to completion, its progress live', async () => {
    const items = Array.from({ length: 6 }, (_, i) => ({
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: `batch prompt ${i} sandbox:delay=${600 + i * 300}` },
    }));
    const r = await svc.call('POST', '/v1/async/task/batch', items);
    const batchId = r.body.batch.id;
    await page.goto(`${svc.url}/dashboard/#/batches`);
    await page.locator(`a[href="#/batches/${batchId}"]`).click();
    await page.waitForSelector(`article.batch[data-batch-id="${batchId}"]`);
    const seen = new Set<string>();
    const bar = page.locator('article.batch .card [role="progressbar"]');
    await until(
      'the batch page says completed',
      async () => {
        seen.add((await bar.getAttribute('aria-valuenow')) ?? '');
        return page.getAttribute('article.batch', 'data-completed');
      },
      (done) => done === 'true',
      30_000,
      100,
    );
    expect(await bar.getAttribute('aria-valuenow')).toBe('6');
    expect(await page.textContent('.batch-state')).toContain('6 completed');
    // The page was seen before the end (live progress), not only once done.
    expect([...seen].some((v) => Number(v) < 6)).toBe(true);
    expect(await page.$$eval('article.batch tbody tr', (rs) => rs.length)).toBe(6);
  });

  it('reads prompt research as ranked questions with their tier, source influence as claims and sources', async () => {
    const research = await svc.call('POST', '/v1/prompt-research', {
      seed: 'running shoes',
      country: 'US',
      limit: 8,
      monitorSize: 4,
    });
    const answer = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'best running shoes for beginners' },
    });
    const done = await waitTerminal(svc, answer.body.task.id);
    const influence = await svc.call('POST', '/v1/source-influence', {
      answer: done.response.markdown,
      prompt: 'best running shoes for beginners',
      citations: done.response.sources.map((s: any) => s.url),
    });
    await waitTerminal(svc, research.body.task.id, 60_000);
    await waitTerminal(svc, influence.body.task.id, 60_000);

    await page.goto(`${svc.url}/dashboard/#/analyses`);
    await page.locator('section[data-kind="PROMPT_RESEARCH"] a', { hasText: 'running shoes' }).click();
    await page.waitForSelector('table.questions tbody tr');
    const pr = (await svc.call('GET', `/v1/async/task/${research.body.task.id}`)).body.response;
    expect(await page.$$eval('table.questions tbody tr', (rs) => rs.length)).toBe(pr.questions.length);
    expect(await page.textContent('table.questions tbody tr')).toContain(`Tier ${pr.questions[0].demand.tier}`);
    expect(await page.textContent('.analysis')).toContain('simulated');

    await page.goto(`${svc.url}/dashboard/#/analyses`);
    await page.locator('section[data-kind="SOURCE_INFLUENCE"] a').first().click();
    await page.waitForSelector('ol.claims li.claim');
    const si = (await svc.call('GET', `/v1/async/task/${influence.body.task.id}`)).body.response;
    expect(await page.$$eval('ol.claims li.claim', (cs) => cs.length)).toBe(si.claims.length);
    expect(await page.textContent('ol.claims')).toContain(si.claims[0].text);
  }, 120_000);

  it('fits 390 pixels wide without sideways scrolling, and signs out', async () => {
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(narrow, svc.url, TEST_KEY);
    await narrow.goto(`${svc.url}/dashboard/#/monitors/${monitorId}`);
    await narrow.waitForSelector('figure.chart canvas');
    await narrow.locator('button.prompt-toggle').first().click();
    const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    const chartWidth = await narrow.$eval('figure.chart canvas', (c) => c.getBoundingClientRect().width);
    expect(chartWidth).toBeLessThanOrEqual(390);
    // A table too wide scrolls in its own box; its words are not broken letter by letter to fit.
    const statusCell = await narrow.$eval(
      'table.runs tbody td:nth-child(2)',
      (td) => td.getBoundingClientRect().height,
    );
    expect(statusCell).toBeLessThan(60);
    await screenshot(narrow, 'monitor-390');
    await narrow.goto(`${svc.url}/dashboard/#/tasks`);
    await narrow.waitForSelector('table.tasks-table tbody tr');
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // A malformed address finds nothing, and says so: the app stays up.
    await narrow.goto(`${svc.url}/dashboard/#/tasks/%E0%A4%A`);
    await narrow.waitForSelector('.error');
    expect(await narrow.textContent('.error')).toContain('RESOURCE_NOT_FOUND');
    await narrow.getByRole('button', { name: 'Sign out' }).click();
    await narrow.waitForSelector('#api-key');
    expect(await narrow.evaluate(() => sessionStorage.getItem('aeq.apiKey'))).toBeNull();
    await narrow.close();
  });
});
