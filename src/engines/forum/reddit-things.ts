import { UpstreamFailure } from '../../domain/engine-errors.js';

/** Reddit's public web origin: permalinks are relative to it. */
const REDDIT_WEB = 'https://www.reddit.com';

/** A post (`t3`) as the FORUM result exposes it in `extra`. */
export interface ForumPost {
  id: string;
  title: string;
  /** null when the account was deleted (`[deleted]`). */
  author: string | null;
  subreddit: string;
  score: number;
  numComments: number;
  /** ISO 8601, from `created_utc`. */
  createdAt: string | null;
  /** Absolute permalink on www.reddit.com. */
  permalink: string;
  /** The linked URL of a link post; null for a self (text) post. */
  linkUrl: string | null;
  domain: string | null;
  isSelf: boolean;
  over18: boolean;
  flair: string | null;
  selftext: string;
}

/** A comment (`t1`) with its loaded replies; unloaded ones are counted in `moreReplies`. */
export interface ForumComment {
  id: string;
  author: string | null;
  body: string;
  score: number;
  createdAt: string | null;
  depth: number;
  permalink: string | null;
  isSubmitter: boolean;
  /** Body is `[deleted]` or `[removed]`. */
  deleted: boolean;
  replies: ForumComment[];
  moreReplies: number;
  /** Replies go deeper than the page shows ("continue this thread"). */
  threadContinues: boolean;
}

export type Json = Record<string, unknown>;

export function asObject(v: unknown): Json | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The `children` of a `{kind: "Listing", data: {children}}`, or LAYOUT_CHANGED. */
export function listingChildren(v: unknown, where: string): Array<{ kind: string; data: Json }> {
  const listing = asObject(v);
  const children = asObject(listing?.data)?.children;
  if (listing?.kind !== 'Listing' || !Array.isArray(children)) {
    throw new UpstreamFailure('LAYOUT_CHANGED', `reddit: ${where} is not a Listing with data.children`);
  }
  return children.map((c, i) => {
    const thing = asObject(c);
    const data = asObject(thing?.data);
    const kind = str(thing?.kind);
    if (!kind || !data) throw new UpstreamFailure('LAYOUT_CHANGED', `reddit: ${where} child ${i} has no kind/data`);
    return { kind, data };
  });
}

export function toPost(d: Json): ForumPost {
  const id = str(d.id);
  const title = str(d.title);
  const permalink = str(d.permalink);
  if (!id || title === null || !permalink)
    throw new UpstreamFailure('LAYOUT_CHANGED', 'reddit: post (t3) without id, title or permalink');
  const isSelf = d.is_self === true;
  const url = str(d.url);
  const abs = absolutePermalink(permalink);
  return {
    id,
    title,
    author: authorOf(d.author),
    subreddit: str(d.subreddit) ?? '',
    score: num(d.score) ?? 0,
    numComments: num(d.num_comments) ?? 0,
    createdAt: isoTime(d.created_utc),
    permalink: abs,
    linkUrl: !isSelf && url && url !== abs ? absoluteLink(url) : null,
    domain: isSelf ? null : str(d.domain),
    isSelf,
    over18: d.over_18 === true,
    flair: str(d.link_flair_text),
    selftext: str(d.selftext) ?? '',
  };
}

export function toComment(d: Json): Omit<ForumComment, 'replies' | 'moreReplies' | 'threadContinues'> {
  const id = str(d.id);
  const body = str(d.body);
  if (!id || body === null) throw new UpstreamFailure('LAYOUT_CHANGED', 'reddit: comment (t1) without id or body');
  const permalink = str(d.permalink);
  return {
    id,
    author: authorOf(d.author),
    body,
    score: num(d.score) ?? 0,
    createdAt: isoTime(d.created_utc),
    depth: num(d.depth) ?? 0,
    permalink: permalink ? absolutePermalink(permalink) : null,
    isSubmitter: d.is_submitter === true,
    deleted: body === '[deleted]' || body === '[removed]',
  };
}

function authorOf(v: unknown): string | null {
  const a = str(v);
  return !a || a === '[deleted]' ? null : a;
}

function isoTime(v: unknown): string | null {
  const s = num(v);
  return s === null ? null : new Date(s * 1000).toISOString();
}

function absolutePermalink(p: string): string {
  return p.startsWith('http') ? p : REDDIT_WEB + (p.startsWith('/') ? p : `/${p}`);
}

// Link posts may carry relative URLs (crossposts point at another permalink).
function absoluteLink(u: string): string {
  return u.startsWith('/') ? REDDIT_WEB + u : u;
}

/** "2026-01-01" from an ISO time, for metadata lines. */
export function dayOf(iso: string | null): string | null {
  return iso ? iso.slice(0, 10) : null;
}
