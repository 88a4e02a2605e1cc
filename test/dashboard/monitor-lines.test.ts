import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../browser/chromium.js';
import { TEST_KEY, fastConfig, startService, steppedClock, tempDir, type RunningService } from '../helpers/service.js';
import { runMonitorToEnd } from '../helpers/monitors.js';
import { builtDashboard, launchChromium, screenshot, signIn } from './dashboard-rig.js';

const DAY = 86_400_000;
const DAYS = 5;
const ENGINES = ['AIMODE', 'ANSWER_ENGINE_A', 'ASSISTANT_A', 'CHATBOT_A'];
const PROMPTS = [
  'best running shoes for flat feet',
  'running shoes for beginners',
  'trail running shoes for wet rocks',
  'cushioned running shoes for long runs',
];

/**
 * The monitor demo's picture in the system Chromium: a sandbox monitor run once a day for five days (the clock stepped)
 * draws four engines as four different lines, and one engine's line jumps from
 * the day its prompts' `sandbox:shift` says. A brand no answer names gets a sentence saying so, not an empty chart.
 */
describe.runIf(chromiumAvailable())('monitor lines in the dashboard', () => {
  // A fixed start: the sandbox's answers are seeded by day, so the same days give the same lines on every run.
  const clock = steppedClock(Date.UTC(2026, 10, 20, 10));
  const shiftDay = '2026-11-23';
  let svc: RunningService;
  let browser: Browser;
  let page: Page;

  const monitor = async (name: string, brand: string) => {
    const r = await svc.call('POST', '/v1/monitors', {
      name,
      prompts: PROMPTS.map((p) => `${p} sandbox:shift=hoka:+70@${shiftDay}:ASSISTANT_A`),
      engines: ENGINES,
      countries: ['US'],
      brand: { name: brand },
      competitors: [{ name: 'Nike' }, { name: 'Brooks' }],
    });
    expect(r.status).toBe(201);
    const id = r.body.monitor.id as string;
    await svc.call('PATCH', `/v1/monitors/${id}`, { status: 'paused' });
    return id;
  };

  beforeAll(async () => {
    const dashboard = await builtDashboard();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_DASHBOARD_DIR: dashboard }, { clock });
    const ids = [await monitor('Hoka lines', 'Hoka'), await monitor('Unnamed brand', 'Mizuno')];
    for (let day = 0; day < DAYS; day++) {
      for (const id of ids) {
        await runMonitorToEnd(svc, id);
      }
      if (day < DAYS - 1) clock.advance(DAY);
    }
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, svc.url, TEST_KEY);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  /** The mention-rate chart's figures table: one column of percentages per engine, a row per run. */
  const mentionColumns = async () =>
    page.$eval('section[aria-label="Mention rate"] figure.chart', (f) => {
      const heads = [...f.querySelectorAll('.chart-figures thead th')].slice(1).map((th) => th.textContent ?? '');
      const rows = [...f.querySelectorAll('.chart-figures tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
      );
      return Object.fromEntries(heads.map((h, i) => [h, rows.map((r) => Number.parseFloat(r[i] ?? ''))]));
    });

  it('draws each engine as its own line, and the shifted engine jumps from its day', async () => {
    await page.goto(`${svc.url}/dashboard/#/monitors`);
    await page.getByRole('link', { name: 'Hoka lines' }).click();
    await page.waitForSelector('section[aria-label="Mention rate"] figure.chart canvas');
    const columns = await mentionColumns();
    expect(Object.keys(columns).sort()).toEqual(ENGINES);
    for (const values of Object.values(columns)) expect(values).toHaveLength(DAYS);
    // Four lines, no two the same.
    expect(new Set(Object.values(columns).map((v) => v.join('|'))).size).toBe(ENGINES.length);
    // ASSISTANT_A from the shift's day (the last two runs) above every day before it.
    const shifted = columns.ASSISTANT_A ?? [];
    expect(Math.min(...shifted.slice(-2))).toBeGreaterThan(Math.max(...shifted.slice(0, -2)));
    expect(await page.locator('.charts-note').count()).toBe(0);
    // Each line has its 95% band, and each figure of the table its interval around it.
    const chart = page.locator('section[aria-label="Mention rate"] figure.chart');
    expect(await chart.getAttribute('data-bands')).toBe(String(ENGINES.length));
    const cells = await chart.locator('.chart-figures tbody td').evaluateAll((tds) =>
      tds.map((td) => {
        const ci = td.querySelector('.ci') as HTMLElement | null;
        return {
          value: Number.parseFloat(td.textContent ?? '') / 100,
          low: Number(ci?.dataset.low),
          high: Number(ci?.dataset.high),
        };
      }),
    );
    expect(cells).toHaveLength(ENGINES.length * DAYS);
    for (const c of cells) {
      expect(c.low).toBeLessThanOrEqual(c.value + 0.0005);
      expect(c.high).toBeGreaterThanOrEqual(c.value - 0.0005);
      expect(c.high - c.low).toBeGreaterThan(0);
    }
    // The shift is listed as a signal: the shifted engine's mention rate, up.
    const rise = page.locator('table.signals tr.signal-up[data-engine="ASSISTANT_A"][data-figure="mentionRate"]');
    await rise.waitFor();
    expect(await rise.locator('td').first().textContent()).toBe('Mention rate');
    await screenshot(page, 'monitor-lines');
  });

  it('draws the search rate of the engines that say it, and where each domain is cited and read', async () => {
    await page.goto(`${svc.url}/dashboard/#/monitors`);
    await page.getByRole('link', { name: 'Hoka lines' }).click();
    const chart = page.locator('section[aria-label="Search rate"] figure.chart');
    await chart.locator('canvas').waitFor();
    const heads = await chart
      .locator('.chart-figures thead th')
      .evaluateAll((ths) => ths.slice(1).map((th) => th.textContent ?? ''));
    // Every engine of this monitor says whether it searched (AI Mode always does); the sandbox searches each time.
    expect(heads.sort()).toEqual(ENGINES);
    const values = await chart
      .locator('.chart-figures tbody td')
      .evaluateAll((tds) => tds.map((td) => Number.parseFloat(td.textContent ?? '')));
    expect(values).toHaveLength(ENGINES.length * DAYS);
    for (const v of values) expect(v).toBe(100);
    // The domains table: each cited domain's share of answers citing it, and of answers reading it.
    const rows = await page
      .locator('table.domains tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(rows.length).toBeGreaterThan(0);
    const reads: number[] = [];
    for (const r of rows) {
      const cited = Number.parseFloat(r[3] ?? '');
      expect(cited).toBeGreaterThan(0);
      expect(cited).toBeLessThanOrEqual(100);
      // Read in: over the answers of the engines that list what they read (AI Mode does not), so a "—" where none did.
      if (r[4] !== '—') reads.push(Number.parseFloat(r[4] ?? ''));
    }
    expect(reads.length).toBeGreaterThan(0);
    for (const v of reads) expect(v > 0 && v <= 100).toBe(true);
  });

  it('lists the names the answers name that the monitor does not track, and tracks one with a click', async () => {
    await page.goto(`${svc.url}/dashboard/#/monitors`);
    await page.getByRole('link', { name: 'Hoka lines' }).click();
    const rows = page.locator('table.discovered tbody tr');
    await rows.first().waitFor();
    const first = (await rows.first().locator('td').first().textContent()) ?? '';
    expect(first).not.toBe('');
    for (const tracked of ['Hoka', 'Nike', 'Brooks']) expect(first.toLowerCase()).not.toBe(tracked.toLowerCase());
    await rows.first().getByRole('button', { name: 'Track' }).click();
    // It becomes a competitor (the monitor's facts), and leaves the list.
    await page.locator('dd mark.competitor', { hasText: first }).waitFor();
    await page.waitForFunction(
      (name) =>
        ![...document.querySelectorAll('table.discovered tbody tr td:first-child')].some(
          (td) => td.textContent === name,
        ),
      first,
    );
    const m = (await svc.call('GET', '/v1/monitors?limit=10')).body.monitors.find(
      (x: { name: string }) => x.name === 'Hoka lines',
    );
    expect(m.competitors.map((c: { name: string }) => c.name)).toEqual(['Nike', 'Brooks', first]);
  });

  it('says so when no answer names the brand, instead of drawing flat lines without a word', async () => {
    await page.goto(`${svc.url}/dashboard/#/monitors`);
    await page.getByRole('link', { name: 'Unnamed brand' }).click();
    const note = page.locator('.charts-note');
    await note.waitFor();
    expect((await note.textContent())?.replace(/\s+/g, ' ')).toContain(
      `Mizuno is not named in any of the ${DAYS * PROMPTS.length * ENGINES.length} answers of these runs`,
    );
    await screenshot(page, 'monitor-unnamed-brand');
  });
});
