import type { CheerioAPI } from 'cheerio';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HtmlPage } from '../common/html-page.js';

/**
 * Block and wall markers found in the markup. They end the attempt only when the page has nothing
 * usable (docs/engines.md#google-walls-and-blocks): real pages with all their results carry the EU consent
 * dialog, and a result may quote "not a robot". Otherwise they are noted in `raw`.
 */
export interface WallSignals {
  blocked: string | null;
  consent: string | null;
}

/**
 * Phrases of the inline captcha / sorry page (docs/engines.md#google-walls-and-blocks); the wording around
 * them varies.
 */
const UNUSUAL_TRAFFIC =
  /unusual traffic|not a robot|systems have detected|비정상적인 트래픽|ungewöhnlichen Datenverkehr/i;
const JS_REQUIRED_TEXT = /turn on javascript|enable javascript|javascript를 사용 설정|JavaScript を有効/i;
/** AI Mode quota notice (docs/engines.md#google-walls-and-blocks). */
const DAILY_LIMIT = /you(?:'|’)ve reached your daily limit|일일 한도에 도달/i;

/**
 * Pages that can never hold results, decided by where the request ended and its status: the sorry
 * page, the turn-on-JavaScript redirect, the consent host, 429 and 403.
 */
export function assertNotBlocked(page: HtmlPage): void {
  const url = safeUrl(page.finalUrl);
  let reason: string | null = null;
  if (url && (url.pathname.includes('/sorry/') || url.hostname.startsWith('sorry.google.'))) reason = 'sorry_page';
  else if (url?.pathname.includes('/httpservice/retry/enablejs')) reason = 'js_required';
  // Google answers 429 only with the sorry page, and 403 to clients it refuses outright.
  else if (page.status === 429) reason = 'http_429';
  else if (page.status === 403) reason = 'http_403';
  if (reason) throw new UpstreamFailure('UPSTREAM_BLOCKED', `google: ${reason} (HTTP ${page.status})`);
  if (url?.hostname.startsWith('consent.google.'))
    throw new UpstreamFailure('CONSENT_REQUIRED', 'google: consent wall (consent_host)');
}

/** Block and wall markers in the markup; whether they end the attempt depends on what else the page holds. */
export function wallSignals($: CheerioAPI, page: HtmlPage): WallSignals {
  return { blocked: blockMarker($, page), consent: consentMarker($) };
}

/** The markers of a page that also holds results, for `raw` (e.g. `["consent_dialog"]`). */
export function wallNotes(walls: WallSignals): string[] {
  return [walls.blocked, walls.consent].filter((w): w is string => w !== null);
}

/** A page with nothing usable on it: its block or wall marker, if any, is why. */
export function assertNoWall(walls: WallSignals, status: number): void {
  if (walls.blocked) throw new UpstreamFailure('UPSTREAM_BLOCKED', `google: ${walls.blocked} (HTTP ${status})`);
  if (walls.consent) throw new UpstreamFailure('CONSENT_REQUIRED', `google: consent wall (${walls.consent})`);
}

/** AI Mode only: the daily quota notice sits where the answer would be. */
export function assertNoDailyLimit($: CheerioAPI, scopeSelector: string): void {
  const scope = $(scopeSelector);
  const text = (scope.length > 0 ? scope : $('body')).text();
  if (DAILY_LIMIT.test(text)) throw new UpstreamFailure('RATE_LIMITED', 'google: AI Mode daily limit reached');
}

/** After blocks: any other non-2xx answer is an upstream fault (or its wall, when the markup shows one). */
export function assertHttpOk(page: HtmlPage, walls: WallSignals): void {
  if (page.status >= 200 && page.status < 300) return;
  assertNoWall(walls, page.status);
  throw new UpstreamFailure('UPSTREAM_ERROR', `google answered HTTP ${page.status}`);
}

function blockMarker($: CheerioAPI, page: HtmlPage): string | null {
  if ($('#captcha-form, .g-recaptcha, script[src*="recaptcha"], iframe[src*="recaptcha"]').length > 0)
    return 'captcha_form';
  const text = $('body').text();
  if (UNUSUAL_TRAFFIC.test(text) && text.length < 2000) return 'unusual_traffic';
  if (page.html.length < 2048 && page.html.includes('/sorry/')) return 'sorry_page';
  if (page.html.includes('/httpservice/retry/enablejs') || JS_REQUIRED_TEXT.test(text)) return 'js_required';
  return null;
}

function consentMarker($: CheerioAPI): string | null {
  if ($('form[action*="consent.google."]').length > 0) return 'consent_form';
  // The dialog's heading (#S3BnEe) and its buttons: L2AGLb/W0wltc since mid-2021, zV9nZe ("I agree")
  // on the early-2021 dialog, which has no form and no L2AGLb (real archived pages, test/real).
  if ($('button#L2AGLb, button#W0wltc, button#zV9nZe, #S3BnEe').length > 0) return 'consent_dialog';
  return null;
}

function safeUrl(u: string): URL | null {
  try {
    return new URL(u);
  } catch {
    return null;
  }
}
