/**
 * The narrow interface engines use to load a page in a real browser (docs/engines.md#google-access,
 * #google-ai-mode, #naver-ai-briefing, #naver-ai-tab): pages whose answer is rendered by
 * JavaScript, or streams in and must be waited for. Like the HTTP transport, it goes out through
 * the exit address taken for the attempt; engines never see Playwright itself.
 */

/** Read-only view of the page while a render waits, for `RenderOptions.until`. */
export interface PageProbe {
  /** Whether any element matches the CSS selector. */
  exists(selector: string): Promise<boolean>;
  /** Text content and absolute link targets of the last element matching the CSS selector, or null. */
  read(selector: string): Promise<{ text: string; links: string[] } | null>;
  /** The URL the page shows now. */
  url(): string;
}

/**
 * One step of an interaction (a chat composer): type into a field, press a key (on the focused
 * element, or on `on`), or click. Selectors are CSS; the step waits for its element to be actionable.
 */
export type RenderAction = { fill: string; text: string } | { press: string; on?: string } | { click: string };

export interface RenderOptions {
  /** CSS selector(s): the render waits until one of them is in the DOM (walls and result markers alike). */
  waitFor?: string | readonly string[];
  /**
   * Steps run in order after `waitFor` and before the completion rule. A step whose element never
   * becomes actionable is LAYOUT_CHANGED.
   */
  actions?: readonly RenderAction[];
  /**
   * CSS selector(s) of walls: when one is on the page after `waitFor`, `actions` are skipped so the parser sees the
   * wall.
   */
  skipActionsIf?: string | readonly string[];
  /** How long one action waits for its element (default 10 s, never beyond the budget). */
  actionTimeoutMs?: number;
  /**
   * Completion rule (docs/engines.md#browser-completion-rule): the text and links of `stableSelector` must stay
   * unchanged
   * this long (after `until` holds). 0 or absent: done as soon as `waitFor` / `until` hold.
   */
  stableMs?: number;
  /**
   * Region watched for stability; the first selector that matches is used. When none matches (a wall,
   * a page of another kind) there is nothing to wait for. Absent: the whole `body`.
   */
  stableSelector?: string | readonly string[];
  /** Extra readiness test polled after `waitFor` (e.g. "the answer container has prose"). */
  until?: (page: PageProbe) => Promise<boolean>;
  /** Overall budget of the render, navigation included. */
  timeoutMs: number;
  /** Poll interval of `until` and the stability check (default 250 ms). */
  pollMs?: number;
  /**
   * Request headers as an adapter builds them: `user-agent` becomes the context's user agent,
   * `cookie` becomes cookies of the target site, and `accept`-like headers the browser sets itself
   * are dropped; the rest is sent with every request of the page.
   */
  headers?: Record<string, string>;
  /**
   * The app's own data as the page receives it (docs/engines.md#app-streams): the body of the first response whose
   * URL path ends with `pathEndsWith`, read from the browser's network layer (the page cannot see or disturb it).
   */
  capture?: StreamCaptureSpec;
}

export interface StreamCaptureSpec {
  /** The response to keep: the first whose URL path ends with this (`/backend-api/conversation`). */
  pathEndsWith: string;
  /** A body larger than this is not kept (`truncated`): the stream is unread and the page is read instead. */
  maxBytes: number;
  /** How long to wait after the page settled for the body to end (a stream still open is `complete: false`). */
  graceMs: number;
}

/** The captured response (RenderOptions.capture). Its body stays out of logs: it may carry the session's data. */
export interface CapturedStream {
  status: number;
  contentType: string;
  /** The body as UTF-8 text; empty when it was not read whole. */
  body: string;
  bytes: number;
  /** False when the body had not ended by the time the page was read (or could not be read). */
  complete: boolean;
  /** True when the body was over `maxBytes` and dropped. */
  truncated: boolean;
}

export interface RenderTimings {
  navigationMs: number;
  waitForMs: number;
  settleMs: number;
  totalMs: number;
}

export interface RenderedPage {
  /** HTTP status of the last main-document response (after redirects). */
  status: number;
  /** URL of the page when it was read (after redirects and script navigations). */
  url: string;
  /** The serialised DOM as rendered. */
  html: string;
  /** False when the budget ran out before the completion rule held: the page as it was then. */
  complete: boolean;
  timings: RenderTimings;
  /** With `RenderOptions.capture`: the captured response, or null when the page never requested it. */
  captured?: CapturedStream | null;
}

export interface BrowserTransport {
  /** Identifier of the exit address in use (for logs). */
  readonly exitId: string;
  /**
   * Loads `url` in a fresh browser context and waits by the completion rule. Navigation failures
   * are UpstreamFailures: a navigation timeout is TIMEOUT, network errors UPSTREAM_ERROR; an abort
   * of the attempt's signal closes the page at once.
   */
  render(url: string, opts: RenderOptions): Promise<RenderedPage>;
}

/**
 * What an attempt that keeps its artefacts asks of its browser (docs/contract.md#artifacts): a copy of the last page
 * it rendered, HTML and screenshot, taken from the very page the engine read, before it is closed.
 */
export interface CaptureRequest {
  /** Height cap of the full-page screenshot, in CSS pixels: a long page is cut there, so a file stays bounded. */
  maxHeight: number;
  /**
   * Text that must never be in a kept picture (the engine's and the exit's credentials): a page whose HTML holds one
   * is not photographed, since a picture cannot be redacted afterwards.
   */
  secrets: readonly string[];
}

/** The last page an attempt rendered, as a capture took it. */
export interface PageCapture {
  url: string;
  html: string;
  /** PNG of the page as shown, top to `maxHeight`; null when it was withheld or could not be taken. */
  screenshot: Uint8Array | null;
}
