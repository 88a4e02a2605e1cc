import type { AttemptContext } from '../adapter.js';
import type { PageProbe, RenderOptions } from '../../transport/browser/browser-transport.js';
import { browserOf, letterCount, renderBudgetMs, stableMsOf } from '../common/engine-render.js';
import { AI_MODE_CONTAINER_TIERS } from './aimode-parser.js';
import type { HtmlPage } from '../common/html-page.js';

/**
 * Which Google page is loaded: the completion rule differs (docs/engines.md#google-ai-overview,
 * #google-results-pages-1-10, #browser-completion-rule).
 */
export type GoogleSurface = 'serp' | 'aioverview' | 'aimode';

/** Markers that end the first wait on any Google page: results, no-results notice, sorry page, consent wall. */
const PAGE_MARKERS = [
  '#search',
  '#rso',
  '#topstuff',
  '#botstuff',
  '#captcha-form',
  '.g-recaptcha',
  'form[action*="consent.google."]',
  'button#L2AGLb',
  'button#W0wltc',
];
/** AI Mode answer containers, as the parser reads them. */
const AIM_CONTAINERS = AI_MODE_CONTAINER_TIERS.map(([, selector]) => selector);
/**
 * The AI Overview streams in after the results (docs/engines.md#google-ai-overview): its block is the region watched
 * for stability when the page has one, else the results. These are the parser's first markers.
 */
const AIO_REGIONS = ['div.YzCcne[data-mcpr]', '#m-x-content', '#rso', '#search'];

/**
 * Defaults of the stability window. AI Mode streams for seconds (median ~6-7 s) with pauses, so it
 * gets the 2 s of docs/engines.md#browser-completion-rule; an AI Overview arrives by one /async fetch after
 * the first paint; a plain results page is complete at DOMContentLoaded but may still be re-laid out.
 */
const DEFAULT_STABLE_MS: Readonly<Record<GoogleSurface, number>> = { serp: 500, aioverview: 1500, aimode: 2000 };

/** What the browser loads: the search URL and the region's Accept-Language (from the search request). */
export interface SearchPageTarget {
  url: string;
  acceptLanguage: string;
}

/** Loads a Google page in the attempt's browser and waits until it is complete for `surface`. */
export async function renderSearchPage(
  ctx: AttemptContext,
  target: SearchPageTarget,
  surface: GoogleSurface,
): Promise<HtmlPage> {
  const opts: RenderOptions = {
    waitFor: surface === 'aimode' ? [...AIM_CONTAINERS, ...PAGE_MARKERS] : PAGE_MARKERS,
    stableSelector:
      surface === 'aimode' ? AIM_CONTAINERS : surface === 'aioverview' ? AIO_REGIONS : ['#rso', '#search'],
    stableMs: stableMsOf(ctx.config, DEFAULT_STABLE_MS[surface]),
    timeoutMs: renderBudgetMs(ctx.config),
    headers: browserHeaders(ctx, target.acceptLanguage),
  };
  if (surface === 'aimode') opts.until = aiModeAnswerStarted;
  const page = await browserOf(ctx).render(target.url, opts);
  return {
    html: page.html,
    status: page.status,
    finalUrl: page.url,
    rendered: { complete: page.complete, timings: page.timings },
  };
}

/**
 * The browser sends its own user agent (a desktop Chrome of its real version) unless the deployment
 * configured one; the consent cookie and the configured headers go along as over HTTP.
 */
function browserHeaders(ctx: AttemptContext, acceptLanguage: string): Record<string, string> {
  const headers: Record<string, string> = { 'accept-language': acceptLanguage, cookie: 'CONSENT=YES+' };
  for (const [k, v] of Object.entries(ctx.config.upstream.headers)) headers[k.toLowerCase()] = v;
  return headers;
}

/**
 * Stability only counts once the answer has begun: the "Thinking" state is short text without
 * sources and must not be taken for a finished answer. A page without a container (a plain results
 * page, a wall) has nothing to wait for; its parser decides.
 */
async function aiModeAnswerStarted(page: PageProbe): Promise<boolean> {
  for (const sel of AIM_CONTAINERS) {
    const box = await page.read(sel);
    if (!box) continue;
    return letterCount(box.text) >= 20 || box.links.some((href) => !isGoogleHost(href));
  }
  return true;
}

function isGoogleHost(href: string): boolean {
  try {
    return /(^|\.)google\.[a-z.]+$/.test(new URL(href).hostname);
  } catch {
    return true;
  }
}
