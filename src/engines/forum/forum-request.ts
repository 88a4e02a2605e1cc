import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { TaskPayload } from '../../domain/task.js';
import { promptOf } from '../common/upstream-status.js';
import { normalizeCommunity, normalizeUser, postRefFromUrl, type PostRef } from './reddit-urls.js';

/** One Reddit API call, independent of the access mode (the path gets `.json` only anonymously). */
export interface ForumCall {
  mode: 'search' | 'read' | 'feed' | 'user_posts';
  /** Listing parse (search/feed/user) or post + comments parse (read). */
  shape: 'listing' | 'thread';
  path: string;
  params: Record<string, string>;
  /** For logs and NO_ANSWER details. */
  what: string;
}

/** Items per listing page: Reddit's default; the first page is what a reader sees. */
const LISTING_LIMIT = '25';

/**
 * Turns a FORUM payload into a call (docs/engines.md#reddit-endpoints; docs/contract.md#readers-by-url).
 * `read` (or a `url` without an action) reads one post; `feed` lists the front page or `community`'s hot
 * posts; `user_posts` lists `user`'s submissions; otherwise `query`/`prompt` is searched, inside `community`
 * when given.
 */
export function planForumCall(p: TaskPayload, ref?: Extract<PostRef, { kind: 'post' }>): ForumCall {
  const action = p.action ?? (p.url ? 'read' : 'search');
  switch (action) {
    case 'read': {
      if (!ref)
        throw new UpstreamFailure('BAD_PAYLOAD', 'read without a resolved post', {
          clientMessage: 'payload.url is required to read a post.',
        });
      const params: Record<string, string> = { raw_json: '1' };
      if (ref.commentId) params.comment = ref.commentId;
      return { mode: 'read', shape: 'thread', path: `/comments/${ref.postId}`, params, what: `post ${ref.postId}` };
    }
    case 'feed': {
      const sub = p.community ? normalizeCommunity(p.community) : null;
      return {
        mode: 'feed',
        shape: 'listing',
        path: sub ? `/r/${sub}/hot` : '/hot',
        params: { limit: LISTING_LIMIT, raw_json: '1' },
        what: sub ? `r/${sub} feed` : 'front page',
      };
    }
    case 'user_posts': {
      const user = normalizeUser(p.user ?? '');
      return {
        mode: 'user_posts',
        shape: 'listing',
        path: `/user/${user}/submitted`,
        params: { sort: 'new', limit: LISTING_LIMIT, raw_json: '1' },
        what: `u/${user} posts`,
      };
    }
    case 'search': {
      const q = promptOf(p);
      if (!q)
        throw new UpstreamFailure('BAD_PAYLOAD', 'search without a query', {
          clientMessage:
            'payload.query (or payload.prompt) is required to search; to read a post by payload.url use action "read".',
        });
      const sub = p.community ? normalizeCommunity(p.community) : null;
      const params: Record<string, string> = {
        q,
        sort: 'relevance',
        t: 'all',
        type: 'link',
        limit: LISTING_LIMIT,
        raw_json: '1',
      };
      if (sub) params.restrict_sr = '1';
      return {
        mode: 'search',
        shape: 'listing',
        path: sub ? `/r/${sub}/search` : '/search',
        params,
        what: sub ? `search in r/${sub}` : 'search',
      };
    }
    default:
      throw new UpstreamFailure('BAD_PAYLOAD', `unknown action ${action}`, {
        clientMessage: 'payload.action must be one of search, read, feed, user_posts.',
      });
  }
}

/** The post a read request addresses, or null when the payload does not read by URL. */
export function readTarget(p: TaskPayload): PostRef | null {
  const action = p.action ?? (p.url ? 'read' : 'search');
  if (action !== 'read') return null;
  if (!p.url)
    throw new UpstreamFailure('BAD_PAYLOAD', 'read without url', {
      clientMessage: 'payload.url is required to read a post.',
    });
  return postRefFromUrl(p.url);
}

export function callUrl(base: string, suffix: string, call: ForumCall): string {
  return `${base}${call.path}${suffix}?${new URLSearchParams(call.params).toString()}`;
}
