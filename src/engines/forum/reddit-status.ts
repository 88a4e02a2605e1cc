import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HttpResponse } from '../../transport/http-transport.js';
import { asObject, str } from './reddit-things.js';

/** Subreddit access reasons Reddit gives in its 403/404 JSON (docs/engines.md#reddit-responses). */
const UNAVAILABLE_REASONS = new Set(['private', 'banned', 'quarantined', 'gold_only', 'gated']);

const REFUSED_MESSAGE =
  'Reddit refuses this community or post to anonymous readers (it may be private, ' +
  'quarantined or removed); choose another community or post.';

/** What a client can change when a community is closed to us (docs/engines.md#reddit-responses reasons). */
function unavailableMessage(reason: string): string {
  switch (reason) {
    case 'private':
      return 'This community is private: only its approved members can read it. Choose another community.';
    case 'quarantined':
      return (
        'This community is quarantined: Reddit shows it only to ' +
        'signed-in users who opt in. Choose another community.'
      );
    case 'banned':
      return 'This community is banned on Reddit and can no longer be read. Choose another community.';
    default: {
      const state = reason.replace(/_/g, ' ');
      return `This community is ${state} and closed to anonymous readers. Choose another community.`;
    }
  }
}

/** The "Blocked" page of docs/engines.md#reddit-access that Reddit serves to unwelcome anonymous clients. */
export function isBlockedPage(html: string): boolean {
  return (
    /<title>\s*Blocked\s*<\/title>/i.test(html) ||
    /whoa there,? pardner/i.test(html) ||
    /blocked due to a network policy/i.test(html)
  );
}

/**
 * Classifies a Reddit API answer before parsing, in the order of docs/engines.md#failure-order: block page,
 * rate limit, credentials, subreddit/post unavailable (a legitimate absence), server errors, and
 * HTML where JSON was expected. Returns the JSON body of a usable answer.
 */
export function redditJson(res: HttpResponse, access: 'oauth' | 'anonymous'): unknown {
  const html = /text\/html/i.test(res.headers['content-type'] ?? '');
  const text = html ? res.text() : '';
  if (html && isBlockedPage(text))
    throw new UpstreamFailure('UPSTREAM_BLOCKED', `reddit network-policy block page (HTTP ${res.status}, ${access})`);
  if (res.status === 429)
    throw new UpstreamFailure('RATE_LIMITED', `reddit answered 429 (${access})`, retryAfter(res.headers));
  if (res.status === 401) throw new UpstreamFailure('AUTH_FAILED', `reddit answered 401 (${access})`);
  if (res.status === 403 || res.status === 404) {
    const body = html ? null : asObject(safeJson(res));
    const reason = str(body?.reason);
    // A refusal of one resource is about that community or post, not about the exit address: no
    // cooldown, and the message says what to change.
    if (reason && UNAVAILABLE_REASONS.has(reason)) {
      throw new UpstreamFailure(
        'PAGE_UNAVAILABLE',
        `reddit: the subreddit is ${reason} (HTTP ${res.status}, ${access})`,
        { clientMessage: unavailableMessage(reason) },
      );
    }
    if (res.status === 404)
      throw new UpstreamFailure('NO_ANSWER', 'reddit: not found (HTTP 404), no such post, subreddit or user');
    // A JSON 403 without a reason: a scope problem of an OAuth token, or a resource refused to anonymous readers.
    if (access === 'oauth') throw new UpstreamFailure('AUTH_FAILED', 'reddit answered 403 to the OAuth client');
    if (body)
      throw new UpstreamFailure('PAGE_UNAVAILABLE', 'reddit refused this resource (JSON 403, anonymous)', {
        clientMessage: REFUSED_MESSAGE,
      });
    // A 403 page that is neither JSON nor the block page: still a refusal of this address; another may pass.
    throw new UpstreamFailure('UPSTREAM_BLOCKED', 'reddit answered 403 to the anonymous client');
  }
  if (res.status < 200 || res.status >= 300)
    throw new UpstreamFailure('UPSTREAM_ERROR', `reddit answered HTTP ${res.status}`);
  if (html)
    throw new UpstreamFailure(
      'LAYOUT_CHANGED',
      `reddit answered HTML where JSON was expected (${res.url.split('?')[0]})`,
    );
  try {
    return res.json();
  } catch {
    throw new UpstreamFailure('UPSTREAM_ERROR', 'reddit answered malformed JSON');
  }
}

/** Rate-limit state Reddit reports on every answer, kept in `raw` for diagnosis. */
export function rateLimitOf(headers: Record<string, string>): {
  used: number | null;
  remaining: number | null;
  resetSeconds: number | null;
} {
  const n = (k: string) => {
    const v = Number(headers[k]);
    return headers[k] !== undefined && Number.isFinite(v) ? v : null;
  };
  return { used: n('x-ratelimit-used'), remaining: n('x-ratelimit-remaining'), resetSeconds: n('x-ratelimit-reset') };
}

function retryAfter(headers: Record<string, string>): { retryAfterMs?: number } {
  const s = Number(headers['retry-after'] ?? headers['x-ratelimit-reset']);
  return Number.isFinite(s) && s > 0 ? { retryAfterMs: s * 1000 } : {};
}

function safeJson(res: HttpResponse): unknown {
  try {
    return res.json();
  } catch {
    return null;
  }
}
