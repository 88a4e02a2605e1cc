import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode } from 'domhandler';
import type TurndownService from 'turndown';
import { turndown, turndownGfm } from '../lazy-modules.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { EngineResult } from '../engine-result.js';
import { markdownToText } from '../common/markdown-text.js';
import { displayHost, normalizeSourceUrl, parseUrl } from '../common/urls.js';

/** What the chat web parsers read: the rendered page as the browser transport returns it. */
export interface RenderedChatPage {
  html: string;
  url: string;
  status: number;
  /** False when the render budget ran out before the answer was stable. */
  complete: boolean;
}

/** Cloudflare's interstitial ("Just a moment…"), in front of both chat UIs (docs/engines.md#chatgpt-web). */
export const CLOUDFLARE_MARKERS = [
  '#challenge-form',
  '#challenge-running',
  '#cf-challenge-running',
  'script[src*="/cdn-cgi/challenge-platform/"]',
];

function isCloudflareChallenge($: CheerioAPI): boolean {
  return /^\s*Just a moment/i.test($('title').text()) || CLOUDFLARE_MARKERS.some((sel) => $(sel).length > 0);
}

export function assertNotCloudflare($: CheerioAPI, engine: string): void {
  if (isCloudflareChallenge($)) throw new UpstreamFailure('UPSTREAM_BLOCKED', `${engine}: Cloudflare challenge page`);
}

/**
 * The answer subtree as Markdown and plain text, with its external links as sources in order of
 * first appearance (deduplicated after `utm_*` is stripped). Links back to the UI's own host are
 * navigation, not sources.
 */
export function answerOf(
  $: CheerioAPI,
  box: Cheerio<AnyNode>,
  pageUrl: string,
): Pick<EngineResult, 'text' | 'markdown' | 'sources'> {
  const clone = box.clone();
  clone.find('script, style, template, noscript, svg, button').remove();
  const ownHost = displayHost(pageUrl);
  const order: string[] = [];
  const labels = new Map<string, string>();
  clone.find('a').each((_, el) => {
    const a = $(el);
    const url = externalUrl(a.attr('href'), pageUrl, ownHost);
    if (!url) {
      a.replaceWith(a.contents());
      return;
    }
    a.attr('href', url);
    if (!labels.has(url)) {
      order.push(url);
      labels.set(url, a.text().replace(/\s+/g, ' ').trim() || displayHost(url));
    }
  });
  const markdown = converter()
    .turndown(clone.html() ?? '')
    // Turndown pads list markers to a tab stop ("-   item"); one space is the usual Markdown.
    .replace(/^(\s*(?:-|\d+\.))\s{2,}/gm, '$1 ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return {
    markdown,
    text: markdownToText(markdown),
    sources: order.map((url, i) => ({ position: i + 1, url, label: labels.get(url) ?? displayHost(url) })),
  };
}

/** Absolute http(s) URL of a link outside the UI's own host, normalised; null otherwise. */
export function externalUrl(href: string | undefined, pageUrl: string, ownHost: string): string | null {
  const u = href ? parseUrl(href, pageUrl) : null;
  if (!u) return null;
  if (!/^https?:$/.test(u.protocol) || displayHost(u.toString()) === ownHost) return null;
  return normalizeSourceUrl(u.toString());
}

function converter(): TurndownService {
  const td = new (turndown())({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.use(turndownGfm().tables);
  return td;
}
