import { cheerio } from '../lazy-modules.js';
import type { CheerioAPI } from 'cheerio';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { EngineResult } from '../engine-result.js';
import { displayHost } from '../common/urls.js';
import { letterCount } from '../common/engine-render.js';
import { answerOf, assertNotCloudflare, externalUrl, type RenderedChatPage } from './web-answer.js';
import type { CapturedStream } from '../../transport/browser/browser-transport.js';
import { domResult, readCaptured, streamResult } from './app-stream.js';
import { readPerplexityStream } from './perplexity-app-stream.js';

/** Perplexity's answer container; the prose class is the fallback when the test id is gone. */
export const PERPLEXITY_ANSWER = ['[data-testid="answer"]', 'div[class*="prose"]'];
/** The numbered source chips above the answer. */
const PERPLEXITY_SOURCE_CHIPS = '[data-testid="sources"] a[href]';

/**
 * Reads a rendered Perplexity search page. Sources are the answer's numbered citation links in
 * order of first appearance; when the answer cites nothing inline, the source chips are used.
 */
export function parsePerplexityPage(page: RenderedChatPage): EngineResult {
  const $ = cheerio().load(page.html);
  assertNotCloudflare($, 'ANSWER_ENGINE_A web');
  const selector = PERPLEXITY_ANSWER.find((sel) => $(sel).length > 0);
  if (!selector) {
    if (!page.complete)
      throw new UpstreamFailure('TIMEOUT', 'ANSWER_ENGINE_A web: no answer container before the render budget ran out');
    throw new UpstreamFailure('LAYOUT_CHANGED', 'ANSWER_ENGINE_A web: no answer container on the page');
  }
  const answer = answerOf($, $(selector).last(), page.url);
  if (letterCount(answer.text) === 0)
    throw new UpstreamFailure('NO_ANSWER', 'ANSWER_ENGINE_A web: the answer stayed empty');
  const sources = answer.sources.length > 0 ? answer.sources : chipSources($, page.url);
  return { ...answer, sources, raw: { status: page.status, finalUrl: page.url, complete: page.complete } };
}

function chipSources($: CheerioAPI, pageUrl: string): EngineResult['sources'] {
  const seen = new Set<string>();
  const out: EngineResult['sources'] = [];
  $(PERPLEXITY_SOURCE_CHIPS).each((_, el) => {
    const url = externalUrl($(el).attr('href'), pageUrl, displayHost(pageUrl));
    if (!url || seen.has(url)) return;
    seen.add(url);
    const label = $(el).find('[data-testid="source-title"]').text().trim() || displayHost(url);
    out.push({ position: out.length + 1, url, label });
  });
  return out;
}

/**
 * The app mode's answer (docs/engines.md#app-streams): from Perplexity's answer stream when it holds a finished
 * answer (`capture: "stream"`), else from the page (`capture: "dom"`).
 */
export function parsePerplexityApp(i: { page: RenderedChatPage; stream: CapturedStream | null }): EngineResult {
  const read = readCaptured(i.stream, readPerplexityStream);
  if (typeof read === 'string') return domResult(parsePerplexityPage(i.page), read);
  return streamResult(read, { status: i.page.status, finalUrl: i.page.url, complete: i.page.complete });
}
