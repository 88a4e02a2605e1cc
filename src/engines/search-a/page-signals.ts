import type { CheerioAPI } from 'cheerio';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { RenderTimings } from '../transport/browser/browser-transport.js';

/** A fetched Google page as the parsers see it. */
export interface FetchedPage {
  html: string;
  status: number;
  /** URL after redirects. */
  finalUrl: string;
  /** Browser transport only: whether the page settled before the budget ran out, and how long it took. */
  rendered?: { complete: boolean; timings: RenderTimings };
}

/** Phrases of the inline captcha / sorry page (upstreams.md 1.6); the wording around them varies. */
const UNUSUAL_TRAFFIC = /unusual traffic|not a robot|systems have detected|비정상적인 트래픽|ungewöhnlichen Datenverkehr/i;
const JS_REQUIRED_TEXT = /turn on javascript|enable javascript|javascript를 사용 설정|JavaScript を有効/i;
/** AI Mode quota notice (upstreams.md 3.2). */
const DAILY_LIMIT = /you(?:'|’)ve reached your daily limit|일일 한도에 도달/i;

/** Blocks and walls come first (upstreams.md section 0 order): a result parser never sees them. */
export function assertNotWalled($: CheerioAPI, page: FetchedPage, structurePresent: boolean): void {
  const blocked = blockReason($, page, structurePresent);
  if (blocked) throw new UpstreamFailure('UPSTREAM_BLOCKED', `google: ${blocked} (HTTP ${page.status})`);
  const consent = consentReason($, page);
  if (consent) throw new UpstreamFailure('CONSENT_REQUIRED', `google: consent wall (${consent})`);
}

/** AI Mode only: the daily quota notice sits where the answer would be. */
export function assertNoDailyLimit($: CheerioAPI, scopeSelector: string): void {
  const scope = $(scopeSelector);
  const text = (scope.length > 0 ? scope : $('body')).text();
  if (DAILY_LIMIT.test(text)) throw new UpstreamFailure('RATE_LIMITED', 'google: AI Mode daily limit reached');
}

/** After walls: any other non-2xx answer is an upstream fault, not a result. */
export function assertHttpOk(page: FetchedPage): void {
  if (page.status >= 200 && page.status < 300) return;
  throw new UpstreamFailure('UPSTREAM_ERROR', `google answered HTTP ${page.status}`);
}

function blockReason($: CheerioAPI, page: FetchedPage, structurePresent: boolean): string | null {
  const url = safeUrl(page.finalUrl);
  if (url && (url.pathname.includes('/sorry/') || url.hostname.startsWith('sorry.google.'))) return 'sorry_page';
  if (url?.pathname.includes('/httpservice/retry/enablejs')) return 'js_required';
  // Google answers 429 only with the sorry page, and 403 to clients it refuses outright.
  if (page.status === 429) return 'http_429';
  if (page.status === 403) return 'http_403';
  if ($('#captcha-form, .g-recaptcha, script[src*="recaptcha"], iframe[src*="recaptcha"]').length > 0) return 'captcha_form';
  if (structurePresent) return null;
  // Without results, the weaker signals are safe to trust (a snippet may quote "unusual traffic").
  const text = $('body').text();
  if (UNUSUAL_TRAFFIC.test(text)) return 'unusual_traffic';
  if (page.html.length < 2048 && page.html.includes('/sorry/')) return 'sorry_page';
  if (page.html.includes('/httpservice/retry/enablejs') || JS_REQUIRED_TEXT.test(text)) return 'js_required';
  return null;
}

function consentReason($: CheerioAPI, page: FetchedPage): string | null {
  const url = safeUrl(page.finalUrl);
  if (url?.hostname.startsWith('consent.google.')) return 'consent_host';
  if ($('form[action*="consent.google."]').length > 0) return 'consent_form';
  if ($('button#L2AGLb, button#W0wltc').length > 0) return 'consent_dialog';
  return null;
}

function safeUrl(u: string): URL | null {
  try {
    return new URL(u);
  } catch {
    return null;
  }
}
