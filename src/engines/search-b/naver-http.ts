import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext } from '../adapter.js';
import type { HtmlPage } from '../common/html-page.js';
import { acceptLanguage, USER_AGENTS } from '../../transport/identity.js';

/** Naver is a Korea-only service: always Korean, whatever the attempt's country. */
export const NAVER_ACCEPT_LANGUAGE = acceptLanguage('ko-KR');

export interface NaverFetchOptions {
  /** Name for logs and failure details. */
  label: string;
  mobile?: boolean;
  referer?: string;
  /** What a 404/410 means on this host (a missing post is not an upstream fault). */
  onGone?: () => never;
}

/** `{base}/search.naver?<params>`; the base is the configured upstream (the sandbox in sandbox mode). */
export function naverSearchUrl(baseUrl: string, params: Record<string, string>): string {
  return `${baseUrl.replace(/(?<!\/)\/+$/, '')}/search.naver?${new URLSearchParams(params).toString()}`;
}

/**
 * GETs a Naver HTML page through the attempt's exit address with Korean browser headers, mapping
 * HTTP failures to kinds: 403 is Naver's anti-crawling answer (blocked), 429 rate limited.
 */
export async function fetchNaverPage(ctx: AttemptContext, url: string, opts: NaverFetchOptions): Promise<HtmlPage> {
  const headers: Record<string, string> = {
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-language': NAVER_ACCEPT_LANGUAGE,
    // Desktop Chrome for search.naver.com; the mobile blog host gets a phone UA (docs/engines.md#naver-surfaces).
    'user-agent': opts.mobile ? USER_AGENTS.mobileSafari : USER_AGENTS.desktopChrome,
    referer: opts.referer ?? 'https://www.naver.com/',
  };
  // Configured headers win; keys are lower-cased so an override replaces rather than duplicates.
  for (const [k, v] of Object.entries(ctx.config.upstream.headers)) headers[k.toLowerCase()] = v;

  const res = await ctx.http.request({ method: 'GET', url, headers, signal: ctx.signal });
  assertNaverStatus(res.status, res.headers['retry-after'], opts);
  return { html: res.text(), status: res.status, finalUrl: res.url };
}

/** HTTP status of a Naver page, over HTTP or in the browser: 403 is Naver's anti-crawling answer, 429 rate limiting. */
export function assertNaverStatus(
  status: number,
  retryAfterHeader: string | undefined,
  opts: Pick<NaverFetchOptions, 'label' | 'onGone'>,
): void {
  if (status === 429) {
    const retryAfter = Number(retryAfterHeader);
    const hint = Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {};
    throw new UpstreamFailure('RATE_LIMITED', `${opts.label} answered 429`, hint);
  }
  if (status === 403) throw new UpstreamFailure('UPSTREAM_BLOCKED', `${opts.label} answered 403`);
  if ((status === 404 || status === 410) && opts.onGone) opts.onGone();
  if (status < 200 || status >= 300)
    throw new UpstreamFailure('UPSTREAM_ERROR', `${opts.label} answered HTTP ${status}`);
}
