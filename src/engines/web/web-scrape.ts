import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { browserHeaders, fetchRawPage } from './page-fetch.js';

/**
 * WEB_SCRAPE: reads any page by `payload.url` and returns its main content as Markdown with its
 * images (docs/engines.md#web-pages). The transport refuses private targets (SSRF) and, in the sandbox,
 * routes non-loopback URLs to the simulator.
 */
export const webScrape: EngineAdapter = {
  taskType: 'WEB_SCRAPE',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    const url = pageUrl(ctx.payload.url);
    const headers = browserHeaders(ctx.country, ctx.config.upstream.headers);
    // Decompressing, decoding and extracting run in the parse pool (`web.page`).
    const page = await fetchRawPage(ctx.http, url, headers, ctx.signal);
    return ctx.parse('web.page', page);
  },
};

function pageUrl(raw: string | undefined): string {
  const bad = (why: string) =>
    new UpstreamFailure('BAD_PAYLOAD', `payload.url ${why}`, {
      clientMessage: 'payload.url must be an absolute http or https URL, such as https://example.com/article.',
    });
  if (!raw?.trim()) throw bad('is missing');
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw bad('is not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw bad(`has scheme ${u.protocol}`);
  u.hash = '';
  return u.toString();
}
