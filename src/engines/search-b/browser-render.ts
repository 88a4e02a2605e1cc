import type { AttemptContext } from '../adapter.js';
import type { PageProbe, RenderOptions } from '../../transport/browser/browser-transport.js';
import { browserOf, letterCount, renderBudgetMs, stableMsOf, usesBrowser } from '../common/engine-render.js';
import { assertNaverStatus, fetchNaverPage, NAVER_ACCEPT_LANGUAGE } from './naver-http.js';
import type { HtmlPage } from '../common/html-page.js';

/** Naver's generated answers: the AI briefing on integrated search, and the AI tab's conversation. */
export type NaverAnswerSurface = 'ai-brief' | 'ai-tab';

const RESULT_CONTAINERS = ['#main_pack', '.main_pack'];
const ASSISTANT_TURN = '[data-turn-role="assistant"]';

/**
 * Stability windows. The briefing may load after the first paint (docs/engines.md#naver-ai-briefing) and has no
 * marker of its own that is safe to wait for (its markup is unverified), so the whole result
 * container must hold still; the AI tab streams like AI Mode and gets the same 2 s.
 */
const DEFAULT_STABLE_MS: Readonly<Record<NaverAnswerSurface, number>> = { 'ai-brief': 1500, 'ai-tab': 2000 };

/** Loads an AI answer page over HTTP, or in the browser when the engine's transport is `browser`. */
export async function loadNaverAnswerPage(
  ctx: AttemptContext,
  url: string,
  surface: NaverAnswerSurface,
  label: string,
): Promise<HtmlPage> {
  if (!usesBrowser(ctx.config)) return fetchNaverPage(ctx, url, { label });
  const opts: RenderOptions = {
    stableSelector: surface === 'ai-tab' ? [ASSISTANT_TURN, ...RESULT_CONTAINERS] : RESULT_CONTAINERS,
    stableMs: stableMsOf(ctx.config, DEFAULT_STABLE_MS[surface]),
    timeoutMs: renderBudgetMs(ctx.config),
    headers: browserHeaders(ctx),
  };
  if (surface === 'ai-tab') opts.until = assistantTurnStarted;
  const page = await browserOf(ctx).render(url, opts);
  assertNaverStatus(page.status, undefined, { label });
  return {
    html: page.html,
    status: page.status,
    finalUrl: page.url,
    rendered: { complete: page.complete, timings: page.timings },
  };
}

/** Korean like the HTTP path; the browser keeps its own user agent unless the deployment set one. */
function browserHeaders(ctx: AttemptContext): Record<string, string> {
  const headers: Record<string, string> = { 'accept-language': NAVER_ACCEPT_LANGUAGE };
  for (const [k, v] of Object.entries(ctx.config.upstream.headers)) headers[k.toLowerCase()] = v;
  return headers;
}

/**
 * Once the question is shown, wait for the answer turn to have prose; a page without a thread has nothing to wait
 * for.
 */
async function assistantTurnStarted(page: PageProbe): Promise<boolean> {
  const turn = await page.read(ASSISTANT_TURN);
  if (turn) return letterCount(turn.text) >= 20;
  return !(await page.exists('[data-turn-role="user"]'));
}

/** Browser transport only: `{ transport, render }` for `raw`; nothing over HTTP. */
export function renderDiagnostics(page: HtmlPage): Record<string, unknown> {
  return page.rendered ? { transport: 'browser', render: page.rendered } : {};
}
