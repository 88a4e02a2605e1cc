import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext, EngineResult } from '../adapter.js';
import { markdownToText } from '../common/markdown-text.js';
import { fetchNaverPage } from './naver-http.js';
import { parseNaverPageUrl } from './naver-page-url.js';

const DEFAULT_BLOG_BASE = 'https://m.blog.naver.com';

const GONE_MESSAGE =
  'The blog post does not exist (it was deleted or never published); pass the URL of an existing public post.';
const LOGIN_MESSAGE =
  'The blog post redirects to the Naver sign-in page, so it cannot be read anonymously; pass the URL of a public post.';

/**
 * SEARCH_B_SERP action=page: reads one Naver blog post. The post is fetched in its mobile form,
 * which serves the content directly (the desktop URL is a frameset shell), from the configured
 * `blogBaseUrl` plus the ids parsed from the client's URL — never from the client's host.
 */
export async function readNaverPage(ctx: AttemptContext, clientUrl: string): Promise<EngineResult> {
  const post = parseNaverPageUrl(clientUrl);
  const option = ctx.config.upstream.options.blogBaseUrl;
  const base = (typeof option === 'string' && option !== '' ? option : DEFAULT_BLOG_BASE).replace(/(?<!\/)\/+$/, '');
  const fetchUrl = `${base}/${encodeURIComponent(post.blogId)}/${post.logNo}`;
  const page = await fetchNaverPage(ctx, fetchUrl, {
    label: 'naver blog',
    mobile: true,
    referer: post.canonicalUrl,
    onGone: () => {
      throw new UpstreamFailure('PAGE_UNAVAILABLE', 'naver blog answered 404', { clientMessage: GONE_MESSAGE });
    },
  });
  if (isSignInUrl(page.finalUrl))
    throw new UpstreamFailure('PAGE_UNAVAILABLE', 'naver blog redirected to sign-in', { clientMessage: LOGIN_MESSAGE });

  const parsed = await ctx.parse('naver.blogPost', page.html);
  const title = parsed.title || `${post.blogId}/${post.logNo}`;
  const markdown = `# ${title}\n\n${parsed.bodyMarkdown}`.trim();
  const extra: Record<string, unknown> = { title, images: parsed.images };
  if (parsed.publishedAt) extra.publishedAt = parsed.publishedAt;
  return {
    text: markdownToText(markdown),
    markdown,
    sources: [{ position: 1, url: post.canonicalUrl, label: title }],
    raw: {
      html: page.html,
      tier: parsed.tier,
      status: page.status,
      finalUrl: page.finalUrl,
      blogId: post.blogId,
      logNo: post.logNo,
    },
    extra,
  };
}

function isSignInUrl(url: string): boolean {
  try {
    return new URL(url).hostname === 'nid.naver.com';
  } catch {
    return false;
  }
}
