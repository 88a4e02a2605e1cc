import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Browser, BrowserContext, BrowserContextOptions, Page, Route } from 'playwright-core';
import { playwright } from './playwright.js';
import type { ExitAddressConfig } from '../../config/engine-config.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type {
  BrowserTransport,
  CaptureRequest,
  PageCapture,
  RenderOptions,
  RenderedPage,
} from './browser-transport.js';
import { browserRegion, desktopUserAgent, desktopUserAgentMetadata } from '../identity.js';
import { openSocket } from '../tunnel.js';
import { parseProxyUrl } from '../proxy-endpoint.js';
import { proxyForExit, splitRequestHeaders, type ContextProxy } from './context-options.js';
import { GuardRelay, type SocketOpener } from './guard-relay.js';
import { isSandboxFailure, planSandbox, type SandboxPlan, type SandboxSetting } from './chromium-sandbox.js';
import { chromiumLaunchOptions } from './launch-options.js';
import { navigationFailure } from './navigation-failure.js';
import { PageSlots } from './page-slots.js';
import { renderPage } from './render-page.js';
import { capturePage, screenshotOf, SNAPSHOT_TIMEOUT_MS } from './capture.js';
import { coerceError } from '../../domain/coerce-error.js';

export interface BrowserPoolOptions {
  executablePath: string;
  /** Pages open at once in this process (`AEQ_BROWSER_PAGES`). */
  maxPages: number;
  log: Logger;
  /** When set, requests to any other origin are refused (sandbox mode: only the simulator). */
  allowedOrigins?: readonly string[];
  /**
   * Refuse every connection of the page to a private, loopback or link-local address (GuardRelay):
   * on outside the sandbox unless AEQ_READER_ALLOW_PRIVATE=1 (docs/security.md#browser-isolation).
   */
  guardPrivate: boolean;
  /** AEQ_CHROMIUM_SANDBOX (default `auto`: the sandbox where the kernel allows it). */
  sandbox?: SandboxSetting;
}

/** What one page needs: where it goes out, which region it looks like, the adapter's headers. */
export interface PageSpec {
  /** The attempt's exit address: its proxy, or the host's own connection. */
  exit: Pick<ExitAddressConfig, 'id' | 'proxyUrl'>;
  country: string;
  headers?: Record<string, string>;
  /** The site the adapter's cookies belong to. */
  cookieUrl?: string;
  /**
   * A page that loads nothing and runs no script (a snapshot of markup the service holds): every request is refused
   * and JavaScript is off, so what it shows is the markup given and nothing else.
   */
  offline?: boolean;
}

export interface BrowserPoolStats {
  launches: number;
  connected: boolean;
  pagesInUse: number;
  waiting: number;
  /** Contexts the browser itself reports open. */
  openContexts: number;
}

/** Bound on waiting for a context's close event (a crashed browser may never send it). */
const CLOSE_WAIT_MS = 5000;

/** Bandwidth the answer does not need: the parsers read the DOM only. */
const BLOCKED_RESOURCES = new Set(['image', 'media', 'font']);

/**
 * One Chromium per worker process, launched on first use and again after it crashes or
 * disconnects. Every page gets its own context (cookies, proxy, locale), closed when the page is
 * done or the attempt is aborted; a semaphore bounds the pages open at once.
 */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;
  private current: Browser | null = null;
  private launches = 0;
  private closed = false;
  private readonly slots: PageSlots;
  private readonly allowed: ReadonlySet<string> | null;
  /** Decided at the first launch and logged once: whether Chromium runs sandboxed, and why. */
  private sandbox: SandboxPlan | null = null;

  constructor(private readonly opts: BrowserPoolOptions) {
    this.slots = new PageSlots(opts.maxPages);
    this.allowed = opts.allowedOrigins ? new Set(opts.allowedOrigins) : null;
  }

  /** The browser transport of one attempt; `close()` it when the attempt ends. */
  forAttempt(a: {
    exit: Pick<ExitAddressConfig, 'id' | 'proxyUrl'>;
    country: string;
    signal: AbortSignal;
    /** The attempt keeps its artefacts: each rendered page is captured (capture.ts). */
    capture?: CaptureRequest;
  }): AttemptBrowser {
    return new AttemptBrowser(this, a.exit, a.country, a.signal, a.capture ?? null);
  }

  /** Runs `fn` on a fresh page in a fresh context; the context is closed afterwards and as soon as `signal` aborts. */
  async withPage<T>(spec: PageSpec, signal: AbortSignal, fn: (page: Page) => Promise<T>): Promise<T> {
    if (this.closed) throw new UpstreamFailure('UPSTREAM_ERROR', 'browser pool is closed');
    // Unguarded, the exit's proxy is the context's; a setting Chromium cannot use fails before anything opens.
    const exitProxy = this.opts.guardPrivate || spec.offline ? null : proxyForExit(spec.exit);
    const release = await this.slots.acquire(signal);
    let context: BrowserContext | null = null;
    let relay: GuardRelay | null = null;
    let contextClosed: Promise<void> = Promise.resolve();
    const onAbort = () => void context?.close().catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const browser = await this.connected();
      if (this.opts.guardPrivate && !spec.offline) relay = await GuardRelay.start(guardedOpener(spec.exit));
      const options = this.contextOptions(spec, browser, relay ?? exitProxy);
      context = await browser.newContext(options);
      const opened = context;
      contextClosed = new Promise((resolve) => opened.once('close', () => resolve()));
      if (signal.aborted) throw new UpstreamFailure('TIMEOUT', 'browser context aborted with the attempt');
      await context.route('**/*', (route) =>
        spec.offline ? route.abort('blockedbyclient').catch(() => undefined) : this.filter(route),
      );
      const { cookies } = splitRequestHeaders(spec.headers);
      const cookieUrl = spec.cookieUrl;
      if (cookies.length > 0 && cookieUrl) await context.addCookies(cookies.map((c) => cookieFor(c, cookieUrl)));
      const page = await context.newPage();
      await overrideLanguages(context, page, browser, options.userAgent ?? '', this.acceptLanguage(spec));
      return await fn(page);
    } catch (e) {
      throw navigationFailure(e, signal, 'page');
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (context) {
        // A second close() returns before the first (the abort's) is done: wait for the event itself.
        await context.close().catch(() => undefined);
        await within(contextClosed, CLOSE_WAIT_MS);
      }
      await relay?.close();
      release();
    }
  }

  stats(): BrowserPoolStats {
    const b = this.current;
    const connected = b?.isConnected() ?? false;
    return {
      launches: this.launches,
      connected,
      pagesInUse: this.slots.inUse,
      waiting: this.slots.waiting,
      openContexts: connected && b ? b.contexts().length : 0,
    };
  }

  /** Process id of the running browser (for logs and crash drills), or null when none runs. */
  async browserPid(): Promise<number | null> {
    const b = this.current;
    if (!b?.isConnected()) return null;
    const session = await b.newBrowserCDPSession();
    try {
      const info = await session.send('SystemInfo.getProcessInfo');
      return info.processInfo.find((p) => p.type === 'browser')?.id ?? null;
    } finally {
      await session.detach().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const launching = this.browser;
    this.browser = null;
    this.current = null;
    const b = launching ? await launching.catch(() => null) : null;
    await b?.close().catch(() => undefined);
    // The namespace wrapper of a root service (chromium-sandbox.ts) lives in a temporary directory of its own.
    const plan = this.sandbox;
    if (plan && plan.executablePath !== this.opts.executablePath)
      fs.rmSync(path.dirname(plan.executablePath), { recursive: true, force: true });
  }

  private contextOptions(
    spec: PageSpec,
    browser: Browser,
    way: GuardRelay | ContextProxy | null,
  ): BrowserContextOptions {
    const region = browserRegion(spec.country);
    const headers = splitRequestHeaders(spec.headers);
    const options: BrowserContextOptions = {
      locale: region.locale,
      timezoneId: region.timezoneId,
      userAgent: headers.userAgent ?? desktopUserAgent(browser.version()),
      // Accept-Language is set per page (overrideLanguages): here Playwright's locale would replace it.
      extraHTTPHeaders: withoutKey(headers.extra, 'accept-language'),
      viewport: { width: 1366, height: 768 },
      // A service worker would answer requests outside the route filter and the proxy's view.
      serviceWorkers: 'block',
    };
    if (spec.offline) options.javaScriptEnabled = false;
    // Guarded, the relay is the only way out: "<-loopback>" removes Chromium's implicit bypass, so
    // 127.0.0.1 and localhost go through the relay (and are refused) like any other host.
    if (way instanceof GuardRelay) options.proxy = { server: way.proxyServer, bypass: '<-loopback>' };
    else if (way) options.proxy = way;
    return options;
  }

  /** The adapter's Accept-Language when it sends one (Naver is Korean whatever the exit), else the country's. */
  private acceptLanguage(spec: PageSpec): string {
    return splitRequestHeaders(spec.headers).extra['accept-language'] ?? browserRegion(spec.country).acceptLanguage;
  }

  private filter(route: Route): Promise<void> {
    const req = route.request();
    let origin = 'null';
    try {
      origin = new URL(req.url()).origin;
    } catch {
      // Unparsable URLs are refused below.
    }
    const refuse = BLOCKED_RESOURCES.has(req.resourceType()) || (this.allowed !== null && !this.allowed.has(origin));
    return (refuse ? route.abort('blockedbyclient') : route.continue()).catch(() => undefined);
  }

  /** The running browser, launching (or relaunching) it when there is none. */
  private async connected(): Promise<Browser> {
    if (this.current && !this.current.isConnected()) this.forget(this.current);
    if (!this.browser) {
      const launching = this.launch();
      this.browser = launching;
      launching.catch(() => {
        if (this.browser === launching) this.browser = null;
      });
    }
    return this.browser;
  }

  private async launch(): Promise<Browser> {
    this.launches++;
    let browser: Browser;
    const plan = this.sandboxPlan();
    try {
      browser = await playwright().chromium.launch(chromiumLaunchOptions(plan.executablePath, plan.sandboxed));
    } catch (e) {
      const message = coerceError(e).message;
      const why = message.split('\n')[0] ?? '';
      if (plan.sandboxed && this.setting() === 'auto' && isSandboxFailure(message)) {
        this.sandbox = {
          sandboxed: false,
          executablePath: this.opts.executablePath,
          why: 'the sandboxed start failed',
        };
        this.opts.log.warn({ err: why }, 'chromium sandbox: off (the sandboxed start failed; starting without it)');
        return this.launch();
      }
      this.opts.log.error({ executablePath: this.opts.executablePath, err: why }, 'chromium could not start');
      throw new UpstreamFailure('UPSTREAM_ERROR', `chromium could not start (${this.opts.executablePath}): ${why}`);
    }
    if (this.closed) {
      await browser.close().catch(() => undefined);
      throw new UpstreamFailure('UPSTREAM_ERROR', 'browser pool is closed');
    }
    this.current = browser;
    browser.on('disconnected', () => {
      if (!this.closed)
        this.opts.log.warn({ launches: this.launches }, 'chromium disconnected; it is relaunched on next use');
      this.forget(browser);
    });
    this.opts.log.info({ version: browser.version(), launches: this.launches }, 'chromium launched');
    return browser;
  }

  private setting(): SandboxSetting {
    return this.opts.sandbox ?? 'auto';
  }

  private sandboxPlan(): SandboxPlan {
    if (this.sandbox) return this.sandbox;
    const plan = planSandbox(this.opts.executablePath, this.setting());
    if (!plan.sandboxed && this.setting() === 'on') {
      this.opts.log.error({ why: plan.why }, 'chromium sandbox required (AEQ_CHROMIUM_SANDBOX=on) but unavailable');
      throw new UpstreamFailure('UPSTREAM_ERROR', `chromium sandbox required but unavailable: ${plan.why}`);
    }
    this.sandbox = plan;
    if (plan.sandboxed) this.opts.log.info({ why: plan.why }, 'chromium sandbox: on');
    else this.opts.log.warn({ why: plan.why }, 'chromium sandbox: off (a compromised renderer is not confined)');
    return plan;
  }

  private forget(browser: Browser): void {
    if (this.current !== browser) return;
    this.current = null;
    this.browser = null;
  }
}

/** The browser side of one attempt: bound to its exit address, country and abort signal. */
export class AttemptBrowser implements BrowserTransport {
  private readonly ended = new AbortController();
  private readonly signal: AbortSignal;

  constructor(
    private readonly pool: BrowserPool,
    private readonly exit: Pick<ExitAddressConfig, 'id' | 'proxyUrl'>,
    private readonly country: string,
    signal: AbortSignal,
    private readonly capture: CaptureRequest | null = null,
  ) {
    this.signal = AbortSignal.any([signal, this.ended.signal]);
  }

  /** The last page rendered in this attempt, when it was asked to capture (null otherwise, or before a render). */
  private last: PageCapture | null = null;

  get captured(): PageCapture | null {
    return this.last;
  }

  /**
   * A picture of markup the service holds (the scrubbed answer of a page it must not keep whole), drawn in a page of
   * its own that loads nothing and runs no script; null when it could not be drawn.
   */
  async snapshot(html: string, maxHeight: number): Promise<Uint8Array | null> {
    const spec: PageSpec = { exit: this.exit, country: this.country, offline: true };
    try {
      return await this.pool.withPage(spec, this.signal, async (page) => {
        await page.setContent(html, { waitUntil: 'domcontentloaded', timeout: SNAPSHOT_TIMEOUT_MS });
        return screenshotOf(page, maxHeight);
      });
    } catch {
      return null;
    }
  }

  get exitId(): string {
    return this.exit.id;
  }

  async render(url: string, opts: RenderOptions): Promise<RenderedPage> {
    const spec: PageSpec = { exit: this.exit, country: this.country, cookieUrl: url };
    if (opts.headers) spec.headers = opts.headers;
    return this.pool.withPage(spec, this.signal, async (page) => {
      const rendered = await renderPage(page, url, opts, this.signal);
      if (this.capture) this.last = await capturePage(page, rendered, this.capture);
      return rendered;
    });
  }

  /** Ends the attempt: a page still open (an adapter that outran its timeout) is closed now. */
  close(): void {
    this.ended.abort();
  }
}

/** Connections of a guarded page: the target is checked after resolution, then reached through the exit. */
function guardedOpener(exit: Pick<ExitAddressConfig, 'id' | 'proxyUrl'>): SocketOpener {
  const proxy = exit.proxyUrl ? parseProxyUrl(exit.id, exit.proxyUrl) : null;
  return (target) => openSocket(proxy, target, { guardPrivate: true });
}

/** Waits for `p`, but no longer than `ms` (the timer does not keep the process alive). */
function within(p: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void p.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Playwright's `locale` sends only the locale itself ("ko-KR") as Accept-Language and exposes just
 * that one language to scripts; a real browser sends its whole list. Chromium's own override takes
 * the list without weights and adds them itself, for the header and `navigator.languages` alike.
 */
async function overrideLanguages(
  context: BrowserContext,
  page: Page,
  browser: Browser,
  userAgent: string,
  acceptLanguage: string,
): Promise<void> {
  const languages = acceptLanguage
    .split(',')
    .map((part) => part.split(';')[0]?.trim() ?? '')
    .filter(Boolean)
    .join(',');
  // The override lives as long as its session: it stays attached until the page closes.
  const session = await context.newCDPSession(page);
  // Client hints only for our own user agent; a configured one may name another browser.
  const ours = userAgent === desktopUserAgent(browser.version());
  await session.send('Emulation.setUserAgentOverride', {
    userAgent,
    acceptLanguage: languages,
    ...(ours ? { userAgentMetadata: desktopUserAgentMetadata(browser.version()) } : {}),
  });
}

function withoutKey(h: Record<string, string>, key: string): Record<string, string> {
  const out = { ...h };
  delete out[key];
  return out;
}

/**
 * A cookie of the target site. Names with the `__Secure-`/`__Host-` prefix (chatgpt.com's session)
 * must carry the Secure flag or Chromium refuses them; Playwright derives that flag from the URL,
 * so they are given host and path explicitly (the simulator's http://127.0.0.1 counts as secure).
 */
function cookieFor(
  c: { name: string; value: string },
  url: string,
):
  | { name: string; value: string; url: string }
  | { name: string; value: string; domain: string; path: string; secure: true } {
  if (!/^__(Secure|Host)-/.test(c.name)) return { ...c, url };
  return { ...c, domain: new URL(url).hostname, path: '/', secure: true };
}
