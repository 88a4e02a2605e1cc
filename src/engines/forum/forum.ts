import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { snapshotOf } from '../parse-pool/bytes.js';
import { callUrl, planForumCall, readTarget } from './forum-request.js';
import { redditAccess } from './reddit-access.js';
import { isBlockedPage, rateLimitOf } from './reddit-status.js';
import { postRefFromUrl, type PostRef } from './reddit-urls.js';

/**
 * FORUM: Reddit (docs/engines.md#reddit). Searches posts, reads one post with its first page of comments,
 * lists a feed or a user's submissions, through OAuth when app credentials are configured and
 * anonymously (`.json`) otherwise.
 */
export const forum: EngineAdapter = {
  taskType: 'FORUM',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    const target = readTarget(ctx.payload);
    const ref = target?.kind === 'share' ? await resolveShareLink(ctx, target) : (target ?? undefined);
    const call = planForumCall(ctx.payload, ref);
    const access = await redditAccess(ctx);
    const res = await ctx.http.request({
      method: 'GET',
      url: callUrl(access.base, access.suffix, call),
      headers: access.headers,
      signal: ctx.signal,
    });
    if (res.status === 401) access.invalidate();
    const finalPath = new URL(res.url).pathname;
    // An unknown subreddit redirects to the subreddit search instead of answering 404.
    if (/\/subreddits\/search/.test(finalPath))
      throw new UpstreamFailure('NO_ANSWER', `reddit: ${call.what}: no such subreddit`);
    // NSFW and quarantined content sends anonymous clients to an age gate or the login page.
    if (/^\/(over18|login|account\/login)\b/.test(finalPath))
      throw new UpstreamFailure('CONSENT_REQUIRED', `reddit: ${call.what}: redirected to ${finalPath}`);
    // Classifying the answer and reading its JSON (a thread can run to megabytes) run in the parse pool.
    const result = await ctx.parse('forum.answer', {
      response: snapshotOf(res),
      access: access.mode,
      shape: call.shape,
      what: call.what,
    });
    return {
      ...result,
      raw: {
        ...(result.raw as Record<string, unknown>),
        request: { mode: call.mode, path: call.path, params: call.params, access: access.mode },
        status: res.status,
        rateLimit: rateLimitOf(res.headers),
      },
    };
  },
};

/** `/r/<sub>/s/<token>` share links name no post: Reddit's redirect to the permalink does. */
async function resolveShareLink(
  ctx: AttemptContext,
  share: Extract<PostRef, { kind: 'share' }>,
): Promise<Extract<PostRef, { kind: 'post' }>> {
  const { upstream } = ctx.config;
  const ua = typeof upstream.options.userAgent === 'string' ? upstream.options.userAgent : 'server:aeq:0.1.0';
  const res = await ctx.http.request({
    method: 'GET',
    url: `${upstream.baseUrl.replace(/(?<!\/)\/+$/, '')}/r/${share.community}/s/${encodeURIComponent(share.token)}`,
    headers: { ...upstream.headers, 'user-agent': ua },
    followRedirects: false,
    signal: ctx.signal,
  });
  const location = res.headers.location;
  if (res.status >= 300 && res.status < 400 && location) {
    const ref = postRefFromUrl(new URL(location, 'https://www.reddit.com').toString());
    if (ref.kind === 'post') return ref;
  }
  if (/text\/html/i.test(res.headers['content-type'] ?? '') && isBlockedPage(res.text()))
    throw new UpstreamFailure('UPSTREAM_BLOCKED', 'reddit block page on a share link');
  if (res.status === 429) throw new UpstreamFailure('RATE_LIMITED', 'reddit answered 429 on a share link');
  if (res.status === 404) throw new UpstreamFailure('NO_ANSWER', 'reddit: share link not found');
  throw new UpstreamFailure('UPSTREAM_ERROR', `reddit share link did not redirect to a post (HTTP ${res.status})`);
}
