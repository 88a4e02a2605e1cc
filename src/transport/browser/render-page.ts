import { setTimeout as sleep } from 'node:timers/promises';
import type { Page, Response } from 'playwright-core';
import type { CapturedStream, PageProbe, RenderOptions, RenderedPage, StreamCaptureSpec } from './browser-transport.js';
import { navigationFailure } from './navigation-failure.js';
import { actionTimeout, runActions } from './render-actions.js';

const DEFAULT_POLL_MS = 250;

/**
 * In-page readers, sent as source text: the project compiles without the DOM library, and these
 * run in the page, not in Node. `read` takes the last match, as the newest turn of a conversation
 * is the one that answers.
 */
const READ_JS = `(sel) => {
  const all = document.querySelectorAll(sel);
  const el = all[all.length - 1];
  if (!el) return null;
  const links = Array.from(el.querySelectorAll('a[href]'), (a) => a.href).filter((h) => /^https?:/.test(h));
  return { text: el.textContent || '', links };
}`;
const EXISTS_JS = `(sel) => document.querySelector(sel) !== null`;

function list(v: string | readonly string[] | undefined): string[] {
  if (v === undefined) return [];
  return typeof v === 'string' ? [v] : [...v];
}

/**
 * Loads `url` in `page` and waits by the completion rule of docs/engines.md#browser-completion-rule: first a marker
 * (`waitFor`), then readiness (`until`), then the watched region unchanged for `stableMs`. When the
 * budget runs out after navigation, the page is returned as it is with `complete: false`, so the
 * parser still tells a wall or an absent answer from an answer that never settled.
 */
export async function renderPage(
  page: Page,
  url: string,
  o: RenderOptions,
  signal: AbortSignal,
): Promise<RenderedPage> {
  const started = performance.now();
  const deadline = started + o.timeoutMs;
  const remaining = () => Math.max(1, Math.floor(deadline - performance.now()));
  let status = 0;
  // The main document's status, also when a script or meta refresh navigates again (a sorry page).
  page.on('response', (res: Response) => {
    try {
      if (res.request().isNavigationRequest() && res.frame() === page.mainFrame()) status = res.status();
    } catch {
      // Service-worker responses have no frame; they are never the main document.
    }
  });

  // Listening before navigation: the app may request its stream as soon as the page loads (a search page).
  const capture = o.capture ? startCapture(page, o.capture) : null;
  let navigated: Response | null;
  try {
    navigated = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: remaining() });
  } catch (e) {
    throw navigationFailure(e, signal, 'navigation');
  }
  if (navigated && status === 0) status = navigated.status();
  const navigationMs = performance.now() - started;

  const finish = async (complete: boolean, waitForMs: number): Promise<RenderedPage> => {
    const html = await contentOf(page, signal);
    const captured = capture && o.capture ? await capture.result(Math.min(o.capture.graceMs, remaining())) : undefined;
    const totalMs = performance.now() - started;
    return {
      status,
      url: page.url(),
      html,
      complete,
      ...(captured !== undefined ? { captured } : {}),
      timings: {
        navigationMs: round(navigationMs),
        waitForMs: round(waitForMs),
        settleMs: round(totalMs - navigationMs - waitForMs),
        totalMs: round(totalMs),
      },
    };
  };

  const markers = list(o.waitFor);
  const waitStarted = performance.now();
  if (markers.length > 0) {
    try {
      await page.waitForSelector(markers.join(', '), { state: 'attached', timeout: remaining() });
    } catch (e) {
      const failure = navigationFailure(e, signal, 'wait for markers');
      if (failure.kind !== 'TIMEOUT' || signal.aborted) throw failure;
      return finish(false, performance.now() - waitStarted);
    }
  }
  const waitForMs = performance.now() - waitStarted;

  const probe = probeOf(page);
  if (o.actions && o.actions.length > 0) {
    let walled: boolean;
    try {
      walled = await anyPresent(probe, list(o.skipActionsIf));
    } catch (e) {
      throw navigationFailure(e, signal, 'look for walls');
    }
    if (!walled) await runActions(page, o.actions, () => actionTimeout(remaining(), o.actionTimeoutMs), signal);
  }
  const stableMs = o.stableMs ?? 0;
  const named = list(o.stableSelector);
  const watched = named.length > 0 ? named : ['body'];
  const pollMs = o.pollMs ?? DEFAULT_POLL_MS;
  let last: string | undefined;
  let since = performance.now();
  try {
    for (;;) {
      const ready = o.until ? await o.until(probe) : true;
      const now = performance.now();
      if (ready && stableMs <= 0) return await finish(true, waitForMs);
      if (!ready) last = undefined;
      else {
        const snap = await snapshotOf(probe, watched);
        // None of the watched regions is on the page (a wall, a plain results page): nothing streams in.
        if (snap === null) return await finish(true, waitForMs);
        if (snap !== last) {
          last = snap;
          since = now;
        } else if (now - since >= stableMs) return await finish(true, waitForMs);
      }
      if (now >= deadline) return await finish(false, waitForMs);
      await sleep(Math.min(pollMs, remaining()), undefined, { signal });
    }
  } catch (e) {
    throw navigationFailure(e, signal, 'settle');
  }
}

interface PendingCapture {
  status: number;
  contentType: string;
  body: Promise<CapturedStream>;
}

/**
 * Keeps the first response whose path ends with the spec's: its body is read from the browser's network layer once it
 * has ended (Playwright's `response.body()`), so the app's code runs untouched. Bounded: a declared or actual size over
 * `maxBytes` is dropped, and `result` waits at most `waitMs` for a stream still open.
 */
function startCapture(page: Page, spec: StreamCaptureSpec): { result(waitMs: number): Promise<CapturedStream | null> } {
  let pending: PendingCapture | null = null;
  const onResponse = (res: Response) => {
    if (pending) return;
    let path: string;
    try {
      path = new URL(res.url()).pathname;
    } catch {
      return;
    }
    if (!path.endsWith(spec.pathEndsWith)) return;
    const headers = res.headers();
    const contentType = headers['content-type'] ?? '';
    const status = res.status();
    pending = { status, contentType, body: readBody(res, { status, contentType }, headers, spec.maxBytes) };
  };
  page.on('response', onResponse);
  return {
    async result(waitMs) {
      page.off('response', onResponse);
      const p = pending as PendingCapture | null;
      if (!p) return null;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), waitMs);
        timer.unref();
      });
      const got = await Promise.race([p.body, late]);
      clearTimeout(timer);
      return (
        got ?? { status: p.status, contentType: p.contentType, body: '', bytes: 0, complete: false, truncated: false }
      );
    },
  };
}

async function readBody(
  res: Response,
  head: { status: number; contentType: string },
  headers: Record<string, string>,
  maxBytes: number,
): Promise<CapturedStream> {
  // A refusal's body is not the stream (the page shows the wall; the parser reads it there), and a page that replaced
  // itself with it may never let its body be read.
  if (head.status !== 200) return { ...head, body: '', bytes: 0, complete: true, truncated: false };
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes)
    return { ...head, body: '', bytes: declared, complete: true, truncated: true };
  try {
    const buf = await res.body();
    if (buf.length > maxBytes) return { ...head, body: '', bytes: buf.length, complete: true, truncated: true };
    return { ...head, body: buf.toString('utf8'), bytes: buf.length, complete: true, truncated: false };
  } catch {
    // The page closed or navigated before the body ended: nothing whole to read.
    return { ...head, body: '', bytes: 0, complete: false, truncated: false };
  }
}

function probeOf(page: Page): PageProbe {
  return {
    exists: (selector) => page.evaluate<boolean>(`(${EXISTS_JS})(${JSON.stringify(selector)})`),
    read: (selector) =>
      page.evaluate<{ text: string; links: string[] } | null>(`(${READ_JS})(${JSON.stringify(selector)})`),
    url: () => page.url(),
  };
}

async function anyPresent(probe: PageProbe, selectors: string[]): Promise<boolean> {
  for (const sel of selectors) if (await probe.exists(sel)) return true;
  return false;
}

/**
 * Text plus links of the first watched region present (identical snapshots: nothing streamed in); null when none is.
 */
async function snapshotOf(probe: PageProbe, selectors: string[]): Promise<string | null> {
  for (const sel of selectors) {
    const region = await probe.read(sel);
    if (region) return `${sel}\u0000${region.text}\u0000${region.links.join('\n')}`;
  }
  return null;
}

/** `page.content()` refuses while a navigation is under way (a late redirect); try again briefly. */
async function contentOf(page: Page, signal: AbortSignal): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await page.content();
    } catch (e) {
      if (attempt >= 5 || signal.aborted || !/navigating/i.test(e instanceof Error ? e.message : ''))
        throw navigationFailure(e, signal, 'read content');
      await sleep(100, undefined, { signal });
    }
  }
}

function round(ms: number): number {
  return Math.round(ms);
}
