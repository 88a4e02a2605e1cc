import type { AttemptContext, EngineResult } from '../adapter.js';
import { promptOf } from '../common/upstream-status.js';
import type { PageProbe } from '../../transport/browser/browser-transport.js';
import { appHeaders, browserOf, letterCount, renderBudgetMs, stableMsOf } from '../common/engine-render.js';
import { APP_STREAM_GRACE_MS, APP_STREAM_MAX_BYTES, unlessStreamed } from './app-stream.js';
import { PERPLEXITY_ANSWER } from './perplexity-web-parser.js';
import { CLOUDFLARE_MARKERS } from './web-answer.js';

/**
 * The answer streams for several seconds with pauses between sections (stable window:
 * docs/engines.md#browser-completion-rule).
 */
const DEFAULT_STABLE_MS = 2000;

/** The answer stream the search page requests (docs/engines.md#perplexity-app-stream). */
const ASK_PATH = '/rest/sse/perplexity_ask';

/**
 * ANSWER_ENGINE_A app surface (`surface: "app"`): Perplexity's search page; the answer read from the answer stream
 * the page receives, or from the page once stable when the stream cannot be read.
 */
export async function runPerplexityWeb(ctx: AttemptContext): Promise<EngineResult> {
  const { upstream } = ctx.config;
  const base = String(upstream.options.webBaseUrl ?? 'https://www.perplexity.ai').replace(/(?<!\/)\/+$/, '');
  const headers = appHeaders(ctx.config);
  const page = await browserOf(ctx).render(`${base}/search?q=${encodeURIComponent(promptOf(ctx.payload))}`, {
    waitFor: [...PERPLEXITY_ANSWER, ...CLOUDFLARE_MARKERS],
    until: answerOrWall,
    stableSelector: PERPLEXITY_ANSWER,
    stableMs: stableMsOf(ctx.config, DEFAULT_STABLE_MS),
    timeoutMs: renderBudgetMs(ctx.config),
    headers,
    capture: { pathEndsWith: ASK_PATH, maxBytes: APP_STREAM_MAX_BYTES, graceMs: APP_STREAM_GRACE_MS },
  });
  const rendered = { html: page.html, url: page.url, status: page.status, complete: page.complete };
  const parsed = await ctx.parse('chat.perplexityApp', { page: rendered, stream: page.captured ?? null });
  const result = unlessStreamed(parsed, page.complete, 'ANSWER_ENGINE_A web');
  return {
    ...result,
    raw: { ...(result.raw as Record<string, unknown>), transport: 'browser', render: page.timings, html: page.html },
  };
}

async function answerOrWall(p: PageProbe): Promise<boolean> {
  for (const sel of PERPLEXITY_ANSWER) {
    const box = await p.read(sel);
    if (box) return letterCount(box.text) > 0;
  }
  return true;
}
