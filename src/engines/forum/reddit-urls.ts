import { UpstreamFailure } from '../../domain/engine-errors.js';

/** What a "read by URL" request addresses: a post, optionally focused on one comment thread. */
export type PostRef =
  | { kind: 'post'; postId: string; commentId: string | null }
  /** `/r/<sub>/s/<token>` share link: only an HTTP redirect reveals the post. */
  | { kind: 'share'; community: string; token: string };

const REDDIT_HOSTS = new Set([
  'reddit.com',
  'www.reddit.com',
  'old.reddit.com',
  'new.reddit.com',
  'np.reddit.com',
  'm.reddit.com',
  'sh.reddit.com',
  'i.reddit.com',
]);
const SHORT_HOSTS = new Set(['redd.it', 'www.redd.it']);
const ID36 = /^[a-z0-9]{1,13}$/i;

const POST_LINK_HINT =
  'payload.url must be a Reddit post link such as https://www.reddit.com/r/<community>/comments/<id>/<title>/ or https://redd.it/<id>.';

/**
 * Normalises a post URL (docs/engines.md#reddit-endpoints): www./old./new./np./m./sh. hosts, `redd.it/<id>` short
 * links, comment permalinks `/comments/<id>/<slug>/<commentId>/`, `/gallery/<id>` and share links.
 * Query strings and fragments are ignored. We never fetch the client's URL itself: the API path
 * is rebuilt from the post id, so the configured upstream (or the sandbox) is always the target.
 */
export function postRefFromUrl(raw: string): PostRef {
  const u = parseLoose(raw);
  if (!u) throw badPayload(`not a URL: ${raw.slice(0, 80)}`, POST_LINK_HINT);
  const host = u.hostname.toLowerCase();
  const segs = u.pathname.split('/').filter(Boolean).map(decodeSafe);
  if (SHORT_HOSTS.has(host)) {
    const id = segs[0];
    if (segs.length === 1 && id && ID36.test(id)) return { kind: 'post', postId: id.toLowerCase(), commentId: null };
    throw badPayload(`redd.it link without a post id: ${u.pathname}`, POST_LINK_HINT);
  }
  if (!REDDIT_HOSTS.has(host)) throw badPayload(`not a Reddit host: ${host}`, POST_LINK_HINT);

  const at = segs.findIndex((s) => s.toLowerCase() === 'comments');
  const postId = at >= 0 ? segs[at + 1] : undefined;
  if (postId && ID36.test(postId)) {
    const commentId = segs[at + 3];
    return {
      kind: 'post',
      postId: postId.toLowerCase(),
      commentId: commentId && ID36.test(commentId) ? commentId.toLowerCase() : null,
    };
  }
  if (segs[0]?.toLowerCase() === 'gallery' && segs[1] && ID36.test(segs[1]))
    return { kind: 'post', postId: segs[1].toLowerCase(), commentId: null };
  if (segs[0]?.toLowerCase() === 'r' && segs[2]?.toLowerCase() === 's' && segs[1] && segs[3]) {
    return { kind: 'share', community: normalizeCommunity(segs[1]), token: segs[3] };
  }
  throw badPayload(
    `Reddit URL is not a post: ${u.pathname}`,
    `${POST_LINK_HINT} For a community's posts use action "feed" with payload.community; ` +
      `for a user's posts use action "user_posts" with payload.user.`,
  );
}

/** "r/Python", "/r/python/" or "python" -> "python"-as-given; letters, digits and _ only. */
export function normalizeCommunity(raw: string): string {
  const name = raw
    .trim()
    .replace(/^\/+|(?<!\/)\/+$/g, '')
    .replace(/^r\//i, '');
  if (!/^[A-Za-z0-9][A-Za-z0-9_]{1,20}$/.test(name)) {
    throw badPayload(
      `bad community ${JSON.stringify(raw.slice(0, 40))}`,
      'payload.community must be a subreddit name such as python (letters, digits and _, with or without r/).',
    );
  }
  return name;
}

/** "u/spez", "/user/spez" or "spez" -> "spez". */
export function normalizeUser(raw: string): string {
  const name = raw
    .trim()
    .replace(/^\/+|(?<!\/)\/+$/g, '')
    .replace(/^(u|user)\//i, '');
  if (!/^[A-Za-z0-9_-]{3,20}$/.test(name)) {
    throw badPayload(
      `bad user ${JSON.stringify(raw.slice(0, 40))}`,
      'payload.user must be a Reddit user name such as spez (3-20 letters, digits, - or _, with or without u/).',
    );
  }
  return name;
}

function parseLoose(raw: string): URL | null {
  const t = raw.trim();
  for (const candidate of [t, `https://${t}`]) {
    try {
      const u = new URL(candidate);
      if ((u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.includes('.')) return u;
    } catch {
      // try the next form
    }
  }
  return null;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function badPayload(detail: string, clientMessage: string): UpstreamFailure {
  return new UpstreamFailure('BAD_PAYLOAD', detail, { clientMessage });
}
