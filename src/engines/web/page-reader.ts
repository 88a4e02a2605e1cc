import { UpstreamFailure } from '../../domain/engine-errors.js';
import { detectCharset, decodeBody } from '../../net/charset.js';
import type { EngineResult } from '../engine-result.js';
import { displayHost } from '../common/urls.js';
import { detectBlock } from './block-signatures.js';
import { extractMainContent } from './main-content.js';
import type { PageBytes } from './page-fetch.js';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const LOGIN_PATH =
  /\/(log-?in|sign-?in|sign_in|signin|auth|sso|account\/login|accounts\/login|session\/new)(\/|$|\?|\.)/i;

/**
 * Turns a fetched page into the WEB_SCRAPE result, deciding in the order of docs/engines.md#failure-order:
 * block/challenge, rate limit, HTTP failures, unsupported type, login wall, then extraction.
 */
export function interpretPage(page: PageBytes): EngineResult {
  const contentType = page.headers['content-type'] ?? '';
  const mime = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const htmlish = HTML_TYPES.has(mime) || (mime === '' && looksLikeHtml(page.body));
  const html = htmlish ? decodeBody(contentType, page.body) : '';

  const block = detectBlock({ status: page.status, headers: page.headers, html });
  if (block)
    throw new UpstreamFailure('UPSTREAM_BLOCKED', `${block.vendor} challenge at ${page.finalUrl} (${block.evidence})`);
  if (page.status === 429)
    throw new UpstreamFailure('RATE_LIMITED', `HTTP 429 from ${displayHost(page.finalUrl)}`, retryAfter(page.headers));
  if (page.status === 404 || page.status === 410)
    throw new UpstreamFailure('NO_ANSWER', `page not found (HTTP ${page.status})`);
  if (page.status >= 500)
    throw new UpstreamFailure('UPSTREAM_ERROR', `HTTP ${page.status} from ${displayHost(page.finalUrl)}`);
  if (page.status === 401) throw new UpstreamFailure('CONSENT_REQUIRED', 'the page requires a login (HTTP 401)');
  // A bare 403 without challenge markers refuses this page, not the exit address (challenges were
  // caught above): no cooldown, and the client learns what to change.
  if (page.status === 403) {
    throw new UpstreamFailure('PAGE_UNAVAILABLE', `HTTP 403 from ${displayHost(page.finalUrl)} (access denied)`, {
      clientMessage:
        'The site refuses this page to anonymous readers (HTTP 403 Forbidden); ' +
        'use a public URL of the page, or another page.',
    });
  }
  if (page.status < 200 || page.status >= 300)
    throw new UpstreamFailure('UPSTREAM_ERROR', `HTTP ${page.status} from ${displayHost(page.finalUrl)}`);
  if (!htmlish)
    throw new UpstreamFailure(
      'CONTENT_UNREADABLE',
      `unsupported content type ${mime || '(none)'}; only text/html and application/xhtml+xml pages are read`,
    );
  if (
    page.finalUrl !== page.requestedUrl &&
    LOGIN_PATH.test(pathOf(page.finalUrl)) &&
    !LOGIN_PATH.test(pathOf(page.requestedUrl))
  ) {
    throw new UpstreamFailure('CONSENT_REQUIRED', `redirected to a login page (${displayHost(page.finalUrl)})`);
  }

  const c = extractMainContent(html, page.finalUrl);
  const title = c.title || displayHost(page.finalUrl);
  return {
    text: c.text,
    markdown: c.markdown,
    sources: [{ position: 1, url: page.finalUrl, label: title }],
    raw: {
      status: page.status,
      requestedUrl: page.requestedUrl,
      finalUrl: page.finalUrl,
      baseUrl: c.baseUrl,
      contentType,
      charset: detectCharset(contentType, page.body),
      bytes: page.body.length,
      tier: c.tier,
      readabilityText: c.readabilityText,
      removed: c.removed,
    },
    extra: {
      title,
      language: c.language,
      canonicalUrl: c.canonicalUrl,
      finalUrl: page.finalUrl,
      byline: c.byline,
      excerpt: c.excerpt,
      publishedTime: c.publishedTime,
      images: c.images,
    },
  };
}

function looksLikeHtml(body: Buffer): boolean {
  return /<(!doctype html|html[\s>]|head[\s>]|body[\s>])/i.test(body.subarray(0, 1024).toString('latin1'));
}

function retryAfter(headers: Record<string, string>): { retryAfterMs?: number } {
  const s = Number(headers['retry-after']);
  return Number.isFinite(s) && s > 0 ? { retryAfterMs: s * 1000 } : {};
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return '';
  }
}
