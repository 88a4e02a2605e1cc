import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode } from 'domhandler';
import iconv from 'iconv-lite';
import { cheerio } from '../../engines/lazy-modules.js';
import { detectBlock } from '../../engines/web/block-signatures.js';

/**
 * Charset and wall detection for cited pages (§2.4): Content-Type charset → BOM → `<meta charset>`
 * / `http-equiv` in the first 4 KB → UTF-8, with an EUC-KR (CP949) retry for `.kr` hosts when UTF-8
 * decoding produces more than 1 % replacement characters.
 */
export function decodePage(body: Buffer, contentType: string | null, host: string): string {
  const cs = charsetOf(body, contentType);
  const decoded = iconv.decode(body, cs === 'euc-kr' || cs === 'ks_c_5601-1987' || cs === 'windows-949' ? 'cp949' : cs);
  if (cs === 'utf-8' && host.endsWith('.kr') && replacementRatio(decoded) > 0.01) return iconv.decode(body, 'cp949');
  return decoded.replace(/^\uFEFF/, '');
}

function charsetOf(body: Buffer, contentType: string | null): string {
  const header = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (header && iconv.encodingExists(header)) return header;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  const head = body.subarray(0, 4096).toString('latin1');
  const meta =
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+http-equiv\s*=\s*["']?content-type["']?[^>]*content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(head)?.[1];
  const m = meta?.toLowerCase();
  if (m && iconv.encodingExists(m)) return m;
  return 'utf-8';
}

function replacementRatio(s: string): number {
  if (s.length === 0) return 0;
  let bad = 0;
  for (const c of s) if (c === '\uFFFD') bad++;
  return bad / s.length;
}

/**
 * Block, captcha and login walls (docs/engines.md#block-signatures, #google-walls-and-blocks, #naver-blocks).
 * The verdict rests on the page's structure, its headers or its URL, never on a phrase of its text: an
 * article may quote "not a robot" (a song) or "unusual traffic", and many pages embed reCAPTCHA in a
 * comment form.
 */
export function isWallPage(status: number, headers: Record<string, string>, html: string, finalUrl: string): boolean {
  const url = safeUrl(finalUrl);
  if (url && (isLoginWall(url) || isGoogleSorry(url))) return true;
  if ((headers['x-amzn-waf-action'] ?? '').includes('captcha')) return true;
  if (headers['x-datadome'] !== undefined && (status === 403 || status === 429)) return true;
  if (detectBlock({ status, headers, html })) return true; // vendor markup and headers (Cloudflare, Akamai, …)
  const head = html.slice(0, SCAN_CHARS);
  if (!MARKUP_HINT.test(head)) return false; // most pages: no challenge markup at all, no second parse
  const $ = cheerio().load(head);
  const challengeTitle = /^\s*just a moment/i.test($('title').first().text());
  if (challengeTitle && (status === 403 || status === 429 || status === 503)) return true;
  $(HIDDEN).remove();
  if (challengeIsTheContent($)) return true;
  return url !== null && isNaverHost(url.hostname) && naverCaptcha($);
}

const SCAN_CHARS = 256 * 1024;
/** Cheap pre-check: markup any rule below needs. */
const MARKUP_HINT = /captcha|challenge|turnstile|__cf_chl_|\/sorry\/|just a moment|자동\s?입력|비정상적인/i;
const HIDDEN = 'script, style, noscript, template, [hidden], [style*="display:none"], [style*="display: none"]';
/**
 * Challenge forms and widgets: Cloudflare's challenge form (`__cf_chl_*` endpoints) and stage, Google's
 * sorry form, reCAPTCHA / hCaptcha / Turnstile / PerimeterX widgets and frames, DataDome's frame, Bing's
 * captcha box.
 */
const CHALLENGE = [
  '#challenge-form',
  'form[action*="__cf_chl_"]',
  '#challenge-stage',
  '#captcha-form',
  'form[action*="/sorry/"]',
  '.g-recaptcha',
  '.h-captcha',
  '.cf-turnstile',
  '#px-captcha',
  'iframe[src*="recaptcha"]',
  'iframe[src*="hcaptcha.com"]',
  'iframe[src*="challenges.cloudflare.com"]',
  'iframe[src*="captcha-delivery.com"]',
  'div.captcha',
  '#b_captcha',
  '.b_captcha',
].join(', ');
/** Fields a reader fills in: a form holding them is a comment, contact or login form, not a challenge. */
const USER_FIELDS =
  'textarea:not([name$="-response"]), select, ' +
  'input:not([type]), input[type="text"], input[type="email"], input[type="tel"], input[type="password"], ' +
  'input[type="search"], input[type="url"], input[type="number"]';
/** Visible text beside the challenge (its explanation, a footer, a Ray ID) stays under this on a wall. */
const BESIDE_LIMIT = 1500;

/** A challenge form or widget that is the page's content: no fields to fill, little text around it. */
function challengeIsTheContent($: CheerioAPI): boolean {
  for (const el of $(CHALLENGE).toArray()) {
    const widget = $(el);
    const form = widget.closest('form');
    const scope = form.length > 0 ? form : widget;
    if (scope.find(USER_FIELDS).length > 0) continue;
    if (visibleTextBeside($, scope) < BESIDE_LIMIT) return true;
  }
  return false;
}

function visibleTextBeside($: CheerioAPI, scope: Cheerio<AnyNode>): number {
  const all = $('body').text().replace(/\s+/g, '').length;
  return all - scope.text().replace(/\s+/g, '').length;
}

/**
 * Naver's captcha ("자동입력 방지": an image and an answer field in a form) and its abnormal-search notice,
 * on Naver's own hosts, on a page without content besides it.
 */
function naverCaptcha($: CheerioAPI): boolean {
  for (const el of $('form').toArray()) {
    const form = $(el);
    if (/자동\s?입력\s?방지/.test(form.text()) && form.find('img, canvas').length > 0) return true;
  }
  const body = $('body').clone();
  body.find('#main_pack, .main_pack, .se-main-container, #postViewArea, .se_component_wrap').remove();
  const text = body.text().replace(/\s+/g, ' ');
  return /비정상적인 (검색|접근)/.test(text) && text.length < BESIDE_LIMIT;
}

function isLoginWall(u: URL): boolean {
  return (
    /(^|\/)(login|signin|sign-in|nidlogin)(\.|\/|$)|\/accounts\/login/i.test(u.pathname) ||
    u.hostname === 'nid.naver.com'
  );
}

/** Google's sorry page: `sorry.google.*` or `/sorry/` on a Google host (docs/engines.md#google-walls-and-blocks). */
function isGoogleSorry(u: URL): boolean {
  const google = /(^|\.)google\.[a-z.]+$/.test(u.hostname);
  return u.hostname.startsWith('sorry.google.') || (google && u.pathname.startsWith('/sorry/'));
}

function isNaverHost(host: string): boolean {
  return host === 'naver.com' || host.endsWith('.naver.com');
}

function safeUrl(u: string): URL | null {
  try {
    return new URL(u);
  } catch {
    return null;
  }
}
