import { cheerio } from '../lazy-modules.js';

/** Which anti-bot vendor answered, and what proved it was a challenge rather than a page. */
export interface BlockEvidence {
  vendor: string;
  evidence: string;
}

export interface PageSignals {
  status: number;
  headers: Record<string, string>;
  /** Decoded HTML (empty when the body is not HTML). */
  html: string;
}

/** Only the head of a page is needed to recognise a challenge; challenge pages are small. */
const SCAN_CHARS = 256 * 1024;
/** Below this much visible text a page is "missing content" (challenge pages are nearly empty). */
const TINY_TEXT = 300;
const CHALLENGE_STATUS = new Set([401, 403, 405, 429, 503]);

/**
 * Block / challenge signatures of generic sites (docs/engines.md#block-signatures). A provider script alone is
 * not enough: many normal pages load Cloudflare's or Incapsula's scripts, and forms embed
 * reCAPTCHA. Each rule requires challenge evidence too: a challenge status, a challenge title, a
 * vendor header that only challenges carry, or a page with almost no content.
 */
export function detectBlock(p: PageSignals): BlockEvidence | null {
  const h = p.headers;
  if (h['cf-mitigated'] === 'challenge') return { vendor: 'cloudflare', evidence: 'cf-mitigated: challenge' };
  const waf = h['x-amzn-waf-action'];
  if (waf === 'captcha' || waf === 'challenge') return { vendor: 'aws-waf', evidence: `x-amzn-waf-action: ${waf}` };
  if (!p.html) return null;

  const head = p.html.slice(0, SCAN_CHARS);
  const $ = cheerio().load(head);
  const title = $('title').first().text().trim();
  $('script, style, noscript, template').remove();
  const visible = $('body').text().replace(/\s+/g, ' ').trim().length;
  const challengeStatus = CHALLENGE_STATUS.has(p.status);
  const tiny = visible < TINY_TEXT;

  // Challenge pages load `/cdn-cgi/challenge-platform/h/…` (orchestrate); normal pages behind
  // Cloudflare often carry `/cdn-cgi/challenge-platform/scripts/jsd/main.js`, which proves nothing.
  const cfScript = /\/cdn-cgi\/challenge-platform\/(h|orchestrate)\/|_cf_chl_opt|cf-chl-/i.test(head);
  const cfTitle = /^(just a moment|attention required|checking your browser)/i.test(title);
  const cfServer = /cloudflare/i.test(h.server ?? '') || 'cf-ray' in h;
  if (cfTitle && (cfScript || cfServer)) return { vendor: 'cloudflare', evidence: `title "${title}"` };
  if (cfScript && cfServer && challengeStatus)
    return { vendor: 'cloudflare', evidence: `HTTP ${p.status} with challenge-platform script` };

  if (p.status === 403 && /access denied/i.test(title) && /Reference\s*(#|&#32;#)/i.test(head)) {
    return { vendor: 'akamai', evidence: 'Access Denied page with a reference number' };
  }
  if (/captcha-delivery\.com/i.test(head) && (challengeStatus || tiny)) {
    return { vendor: 'datadome', evidence: 'captcha-delivery.com challenge' };
  }
  if ('x-datadome' in h && p.status === 403) return { vendor: 'datadome', evidence: 'HTTP 403 with x-datadome' };
  if (
    (/px-captcha/i.test(head) || /press (&amp;|&) hold/i.test(head)) &&
    (challengeStatus || /access to this page has been denied/i.test(title))
  ) {
    return { vendor: 'perimeterx', evidence: 'px-captcha challenge' };
  }
  if (/Incapsula incident ID/i.test(head)) return { vendor: 'incapsula', evidence: 'Incapsula incident ID' };
  if (/_Incapsula_Resource/i.test(head) && (p.status >= 400 || tiny)) {
    return { vendor: 'incapsula', evidence: '_Incapsula_Resource on an empty or error page' };
  }
  const captchaScript =
    /google\.com\/recaptcha|recaptcha\.net|hcaptcha\.com|challenges\.cloudflare\.com\/turnstile/i.test(head);
  if (captchaScript && challengeStatus && tiny)
    return { vendor: 'captcha', evidence: `HTTP ${p.status} captcha page without content` };
  return null;
}
