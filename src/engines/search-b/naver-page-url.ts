import { UpstreamFailure } from '../../domain/engine-errors.js';

/** A Naver blog post named by a client URL. */
export interface BlogPostRef {
  blogId: string;
  logNo: string;
  /** The desktop URL of the post, reported as its source. */
  canonicalUrl: string;
}

const BLOG_HOSTS = new Set(['blog.naver.com', 'm.blog.naver.com']);
const CAFE_HOSTS = new Set(['cafe.naver.com', 'm.cafe.naver.com']);
const BLOG_ID = /^[A-Za-z0-9_-]{1,50}$/;
/** logNo is a long decimal number (9+ digits today; older posts have shorter ones). */
const LOG_NO = /^\d{6,20}$/;

const POST_FORM = 'https://blog.naver.com/<blogId>/<logNo>';

/**
 * Reads `payload.url` for SEARCH_B_SERP action=page. Only the ids are kept: the fetch URL is
 * always built from the configured blog base, never from the client's host (docs/engines.md#naver-blog-posts).
 */
export function parseNaverPageUrl(raw: string): BlogPostRef {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw badPayload(`payload.url is not a valid URL; pass a Naver blog post URL such as ${POST_FORM}.`);
  }
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw badPayload(`payload.url must be an http(s) URL of a Naver blog post such as ${POST_FORM}.`);
  }
  if (host !== 'naver.com' && !host.endsWith('.naver.com')) {
    throw badPayload(
      `payload.url must be a page of Naver (a blog post such as ${POST_FORM}); use WEB_SCRAPE for other sites.`,
    );
  }
  if (CAFE_HOSTS.has(host)) {
    // Cafe articles load through a signed-in member API inside an iframe; no anonymous HTML form exists.
    throw new UpstreamFailure('PAGE_UNAVAILABLE', `cafe URL ${u.pathname}`, {
      clientMessage:
        `Naver cafe posts are shown to signed-in cafe members only and cannot be read anonymously; ` +
        `pass the URL of a public blog post (${POST_FORM}) instead.`,
    });
  }
  if (!BLOG_HOSTS.has(host)) {
    throw badPayload(
      `payload.url must be a Naver blog post (${POST_FORM} or ` +
        `blog.naver.com/PostView.naver?blogId=…&logNo=…); ${host} pages are not supported.`,
    );
  }
  const ids = blogIds(u);
  if (!ids)
    throw badPayload(
      `payload.url must name one blog post: ${POST_FORM} or https://blog.naver.com/PostView.naver?blogId=<blogId>&logNo=<logNo>.`,
    );
  return { ...ids, canonicalUrl: `https://blog.naver.com/${ids.blogId}/${ids.logNo}` };
}

function blogIds(u: URL): { blogId: string; logNo: string } | null {
  const segments = u.pathname.split('/').filter(Boolean);
  if (segments.length === 1 && /^PostView\.(naver|nhn)$/i.test(segments[0] ?? '')) {
    const blogId = u.searchParams.get('blogId') ?? '';
    const logNo = u.searchParams.get('logNo') ?? '';
    return BLOG_ID.test(blogId) && LOG_NO.test(logNo) ? { blogId, logNo } : null;
  }
  const [blogId = '', logNo = ''] = segments;
  if (segments.length === 2 && BLOG_ID.test(blogId) && LOG_NO.test(logNo)) return { blogId, logNo };
  return null;
}

function badPayload(message: string): UpstreamFailure {
  return new UpstreamFailure('BAD_PAYLOAD', message, { clientMessage: message });
}
