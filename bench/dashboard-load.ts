import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../src/transport/browser/launch-options.js';
import { median, percentile } from './stats.js';

/** What a page of the dashboard must show to count as loaded. */
export interface DashboardPage {
  name: string;
  /** The dashboard address after `#` (e.g. `/monitors/ID`). */
  hash: string;
  /**
   * What the page shows once loaded: each selector matches at least `min` elements (exactly `exact` when given).
   * Selectors, not code: the dashboard's CSP allows no eval, in its own scripts or in the bench's.
   */
  ready: Array<{ selector: string; min?: number; exact?: number }>;
}

export interface PageLoadFigures {
  name: string;
  hash: string;
  loads: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  /** Bytes the page fetched (its document, files and API answers) in the last load. */
  bytes: number;
  /** Requests it made (files and API calls). */
  requests: number;
}

/**
 * Times cold loads of dashboard pages in the system Chromium: each load a fresh browser context (no cache, no
 * session), the key already in session storage as after a sign-in, timed from navigation start to the first animation
 * frame at which the page's `ready` predicate holds (read in the page from `performance.now()`, so the bench's own
 * round trips to the browser do not count).
 */
export async function timeDashboardLoads(
  svc: { url: string; key: string },
  pages: DashboardPage[],
  o: { loads?: number; warmup?: number; chromiumPath?: string } = {},
): Promise<PageLoadFigures[]> {
  const browser = await chromium.launch(chromiumLaunchOptions(o.chromiumPath ?? '/usr/bin/chromium'));
  const out: PageLoadFigures[] = [];
  try {
    for (const p of pages) {
      const ms: number[] = [];
      let bytes = 0;
      let requests = 0;
      const total = (o.warmup ?? 2) + (o.loads ?? 10);
      for (let i = 0; i < total; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        await context.addInitScript({ content: readyRecorder(svc.key, p.ready) });
        const page = await context.newPage();
        await page.goto(`${svc.url}/dashboard/#${p.hash}`);
        await page
          .waitForFunction(() => (window as unknown as { readyAt?: number }).readyAt !== undefined, null, {
            timeout: 30_000,
          })
          .catch(async (e: unknown) => {
            const shown = await page.evaluate(() => (document.body.textContent ?? '').slice(0, 300));
            throw new Error(`${p.name}: not ready after 30 s; the page shows: ${shown}`, { cause: e });
          });
        const measured = await page.evaluate(() => {
          const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
          return {
            at: (window as unknown as { readyAt: number }).readyAt,
            bytes: entries.reduce((s, e) => s + e.encodedBodySize, nav?.encodedBodySize ?? 0),
            requests: entries.length + 1,
            timeline: entries.map(
              (e) => `${Math.round(e.startTime)}-${Math.round(e.responseEnd)} ${e.name.slice(-60)}`,
            ),
          };
        });
        if (i >= (o.warmup ?? 2)) ms.push(measured.at);
        bytes = measured.bytes;
        if (process.env.AEQ_BENCH_TIMELINE) console.log(p.name, Math.round(measured.at), measured.timeline);
        requests = measured.requests;
        await context.close();
      }
      out.push({
        name: p.name,
        hash: p.hash,
        loads: ms.length,
        medianMs: median(ms),
        p95Ms: percentile(ms, 95),
        maxMs: Math.max(...ms),
        bytes,
        requests,
      });
    }
  } finally {
    await browser.close();
  }
  return out;
}

/**
 * The script put in the page before its own: the key in session storage (as after a sign-in), then a check at each
 * animation frame that stamps `window.readyAt` once the page shows what it should. Text, not a function: tsx would
 * wrap a function's inner functions in helpers that do not exist in the page.
 */
function readyRecorder(key: string, ready: DashboardPage['ready']): string {
  return `
    sessionStorage.setItem('aeq.apiKey', ${JSON.stringify(key)});
    const ready = ${JSON.stringify(ready)};
    const check = () => ready.every((r) => {
      const n = document.querySelectorAll(r.selector).length;
      return r.exact !== undefined ? n === r.exact : n >= (r.min ?? 1);
    });
    const tick = () => { if (check()) window.readyAt = performance.now(); else requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  `;
}

/** The pages of a monitor the scale run times: the list of monitors, and one monitor with `runs` runs. */
export function monitorPages(monitorId: string, runs: number): DashboardPage[] {
  return [
    {
      name: 'monitors (the list)',
      hash: '/monitors',
      ready: [{ selector: 'main table tbody tr' }],
    },
    {
      name: `a monitor: 2 charts over ${runs} runs, top domains, latest answers, runs`,
      hash: `/monitors/${monitorId}`,
      ready: [
        { selector: 'figure.chart canvas', exact: 2 },
        { selector: 'table.domains tbody tr' },
        { selector: 'button.prompt-toggle' },
        { selector: 'table.runs tbody tr', exact: Math.min(runs, 30) },
      ],
    },
  ];
}
