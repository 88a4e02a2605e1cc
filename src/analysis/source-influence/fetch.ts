import { UpstreamFailure } from '../../domain/engine-errors.js';
import { isShortText } from '../../engines/common/page-extract.js';
import type { Parse } from '../../engines/parse-pool/parsers.js';
import type { HttpResponse, HttpTransport } from '../../transport/http-transport.js';
import { KeyedSemaphore, mapLimit, sleep, type TtlCache } from '../common/async.js';
import { fetchableUrl, hostnameOf } from '../common/urls.js';
import type { SourceInfluenceConfig } from '../config.js';
import type { Language } from '../text/norm.js';
import { decodePage, isWallPage } from './page-decode.js';
import type { FetchRecord, FetchStatus, CitedPage } from './types.js';
import { acceptLanguage, USER_AGENTS } from '../../transport/identity.js';

/**
 * Fetches every distinct cited page through the attempt's transport (so SSRF rules and sandbox
 * routing are those of the page reader), with bounded concurrency per task and per host, one retry
 * on network errors / 5xx / 429, and a page cache by tenant and normalised URL. A failed source never
 * fails the task: its status is recorded and the analysis falls back to the citation's snippet.
 */
export interface FetchDeps {
  http: HttpTransport;
  signal: AbortSignal;
  /** The attempt's parse pool: page extraction (jsdom + Readability) runs there. */
  parse: Parse;
  config: SourceInfluenceConfig;
  cache: TtlCache<CitedPage> | null;
  /**
   * The task's tenant, part of every cache key: a hit (`fromCache`, `cacheHits`, no charge, no wait) then only
   * ever comes from the same account's earlier read, never tells who else read a URL.
   */
  tenant: string;
  now: () => number;
}

export async function fetchAll(urls: readonly string[], lang: Language, deps: FetchDeps): Promise<FetchRecord[]> {
  const perHost = new KeyedSemaphore(deps.config.fetch.perHost);
  return mapLimit(urls, deps.config.fetch.concurrency, (url) =>
    perHost.run(hostnameOf(url), () => fetchOne(url, lang, deps)),
  );
}

function page(status: FetchStatus, url: string, now: number, extra: Partial<CitedPage> = {}): CitedPage {
  return {
    status,
    httpStatus: null,
    contentType: null,
    bytes: 0,
    finalUrl: url,
    text: null,
    textSource: null,
    truncated: false,
    metadata: null,
    fetchedAt: now,
    detail: null,
    ...extra,
  };
}

async function fetchOne(url: string, lang: Language, deps: FetchDeps): Promise<FetchRecord> {
  const started = deps.now();
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return {
      page: page('invalid_url', url, started, { detail: 'not an http(s) URL' }),
      attempted: false,
      fromCache: false,
      retries: 0,
      durationMs: 0,
    };
  }
  const cacheKey = `${deps.tenant}\u0000${url}`;
  const cached = deps.cache?.get(cacheKey);
  if (cached) return { page: cached, attempted: false, fromCache: true, retries: 0, durationMs: 0 };

  let retries = 0;
  let result: CitedPage;
  for (let attempt = 1; ; attempt++) {
    const outcome = await requestOnce(url, lang, deps);
    if (outcome.retryAfterMs !== null && attempt === 1 && outcome.retryAfterMs <= deps.config.fetch.maxRetryAfterMs) {
      retries++;
      await sleep(outcome.retryAfterMs, deps.signal);
      continue;
    }
    result = outcome.page;
    break;
  }
  if (result.status !== 'timeout' && result.status !== 'network_error') deps.cache?.set(cacheKey, result);
  return {
    page: result,
    attempted: true,
    fromCache: false,
    retries,
    durationMs: Math.max(0, Math.round(deps.now() - started)),
  };
}

/** One request (redirects followed by the transport). `retryAfterMs` non-null means "retry once after this wait". */
async function requestOnce(
  url: string,
  lang: Language,
  deps: FetchDeps,
): Promise<{ page: CitedPage; retryAfterMs: number | null }> {
  const { fetch: cfg } = deps.config;
  const now = deps.now();
  const timeout = AbortSignal.timeout(cfg.timeoutMs);
  let res: HttpResponse;
  try {
    res = await deps.http.request({
      method: 'GET',
      url: fetchableUrl(url),
      headers: {
        'user-agent': USER_AGENTS.desktopChrome,
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
        'accept-language': acceptLanguage(lang === 'ko' ? 'ko-KR' : 'en-US', true),
      },
      maxRedirects: cfg.maxRedirects,
      maxBytes: cfg.maxBytes,
      signal: AbortSignal.any([deps.signal, timeout]),
    });
  } catch (e) {
    if (deps.signal.aborted) throw e; // the whole attempt is ending: let the runner report it
    if (timeout.aborted)
      return {
        page: page('timeout', url, now, { detail: `no answer within ${cfg.timeoutMs} ms` }),
        retryAfterMs: null,
      };
    const status = failureStatus(e);
    return {
      page: page(status.status, url, now, { detail: status.detail }),
      retryAfterMs: status.status === 'network_error' ? cfg.retryDelayMs : null,
    };
  }
  const contentType = res.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? null;
  const base = { httpStatus: res.status, contentType, bytes: res.body.length, finalUrl: res.url || url };
  const host = hostnameOf(base.finalUrl);
  const looksHtml =
    contentType === null && /^\s*<(!doctype html|html|head|body)/i.test(res.body.subarray(0, 512).toString('latin1'));
  const isHtml = contentType === 'text/html' || contentType === 'application/xhtml+xml' || looksHtml;
  const text =
    isHtml || contentType === 'text/plain' || res.status >= 400
      ? decodePage(res.body, res.headers['content-type'] ?? null, host)
      : '';

  if (isWallPage(res.status, res.headers, text, base.finalUrl))
    return { page: page('blocked', url, now, { ...base, detail: 'block or captcha page' }), retryAfterMs: null };
  if (res.status === 429 || res.status >= 500) {
    const ra = Number(res.headers['retry-after']);
    const wait = Number.isFinite(ra) && ra >= 0 ? ra * 1000 : cfg.retryDelayMs;
    return { page: page('http_error', url, now, { ...base, detail: `HTTP ${res.status}` }), retryAfterMs: wait };
  }
  if (res.status < 200 || res.status >= 300)
    return { page: page('http_error', url, now, { ...base, detail: `HTTP ${res.status}` }), retryAfterMs: null };
  if (!isHtml && contentType !== 'text/plain') {
    return {
      page: page('unsupported_content_type', url, now, { ...base, detail: `content type ${contentType ?? 'unknown'}` }),
      retryAfterMs: null,
    };
  }
  const minEn = deps.config.text.minCharsEn;
  const minKo = deps.config.text.minCharsKo;
  const extracted = isHtml
    ? await deps.parse('sourceInfluence.page', { html: text, url: base.finalUrl, minCharsEn: minEn, minCharsKo: minKo })
    : plainText(text, minEn, minKo);
  if (!extracted.text)
    return {
      page: page('empty_content', url, now, { ...base, metadata: extracted.metadata, detail: 'no readable text' }),
      retryAfterMs: null,
    };
  const max = deps.config.text.maxCharsPerSource;
  const truncated = extracted.text.length > max;
  return {
    page: page('ok', url, now, {
      ...base,
      text: truncated ? extracted.text.slice(0, max) : extracted.text,
      textSource: extracted.textSource,
      truncated,
      short: extracted.short,
      metadata: extracted.metadata,
    }),
    retryAfterMs: null,
  };
}

/** A `text/plain` page is its own text; short like an HTML page (§2.4). */
function plainText(text: string, minEn: number, minKo: number) {
  const trimmed = text.trim();
  const short = trimmed !== '' && isShortText(trimmed, minEn, minKo);
  return { text: trimmed || null, textSource: 'extracted' as const, short, metadata: null };
}

function failureStatus(e: unknown): { status: FetchStatus; detail: string } {
  const chain: unknown[] = [];
  for (let cur: unknown = e; cur && chain.length < 5; cur = (cur as { cause?: unknown }).cause) chain.push(cur);
  // The guarded transport reports a private address and a name that does not resolve as one error, so the
  // result cannot tell a client which private host names exist.
  if (chain.some((c) => (c as { code?: unknown }).code === 'PRIVATE_ADDRESS'))
    return { status: 'ssrf_refused', detail: 'not a public address that resolves' };
  if (e instanceof UpstreamFailure) {
    if (e.kind === 'CONTENT_UNREADABLE') return { status: 'too_large', detail: 'body over the size cap' };
    if (e.kind === 'BAD_PAYLOAD') return { status: 'invalid_url', detail: 'redirect to a non-http(s) URL' };
    if (/redirect/i.test(e.message)) return { status: 'http_error', detail: 'too many redirects' };
  }
  const code = (chain.find((c) => typeof (c as { code?: unknown }).code === 'string') as { code?: string } | undefined)
    ?.code;
  return { status: 'network_error', detail: code ? `network error ${code}` : 'network error' };
}
