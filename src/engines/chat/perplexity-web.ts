import type { AttemptContext, EngineResult } from '../adapter.js';
import { promptOf } from '../common/upstream-status.js';
import type { PageProbe } from '../../transport/browser/browser-transport.js';
import { browserOf, letterCount, renderBudgetMs, settledOrTimeout, stableMsOf } from '../common/engine-render.js';
import { PERPLEXITY_ANSWER } from './perplexity-web-parser.js';
import { CLOUDFLARE_MARKERS } from './web-answer.js';

/**
 * The answer streams for several seconds with pauses between sections (stable window:
 * docs/engines.md#browser-completion-rule).
 */
const DEFAULT_STABLE_MS = 2000;

/** ANSWER_ENGINE_A web mode (`transport: "browser"`): Perplexity's search page, read once the answer is stable. */
export async function runPerplexityWeb(ctx: AttemptContext): Promise<EngineResult> {
  const { upstream } = ctx.config;
  const base = String(upstream.options.webBaseUrl ?? 'https://www.perplexity.ai').replace(/(?<!\/)\/+$/, '');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(upstream.headers)) headers[k.toLowerCase()] = v;
  const page = await browserOf(ctx).render(`${base}/search?q=${encodeURIComponent(promptOf(ctx.payload))}`, {
    waitFor: [...PERPLEXITY_ANSWER, ...CLOUDFLARE_MARKERS],
    until: answerOrWall,
    stableSelector: PERPLEXITY_ANSWER,
    stableMs: stableMsOf(ctx.config, DEFAULT_STABLE_MS),
    timeoutMs: renderBudgetMs(ctx.config),
    headers,
  });
  const result = await settledOrTimeout(page.complete, 'ANSWER_ENGINE_A web', () =>
    ctx.parse('chat.perplexityWeb', { html: page.html, url: page.url, status: page.status, complete: page.complete }),
  );
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
