import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { EngineResult, Source } from '../engine-result.js';
import { markdownToText } from '../common/markdown-text.js';
import { asObject, listingChildren, str, toPost, type ForumPost } from './reddit-things.js';

/** Selftext shown under each listed post (docs/engines.md#reddit-normalisation: "a trimmed selftext"). */
const SNIPPET_CHARS = 280;

/**
 * Parses a Listing of posts (search, subreddit or front-page feed, user submissions) into a
 * numbered list: subreddit, score, comment count and a trimmed selftext per post; sources are
 * the permalinks in listing order (docs/engines.md#reddit-normalisation). An empty listing is NO_ANSWER.
 */
export function parseListing(body: unknown, what: string): EngineResult {
  const children = listingChildren(body, `${what} listing`);
  if (children.length === 0) throw new UpstreamFailure('NO_ANSWER', `reddit: ${what} returned an empty listing`);
  const posts = children.filter((c) => c.kind === 't3').map((c) => toPost(c.data));
  if (posts.length === 0) {
    const kinds = [...new Set(children.map((c) => c.kind))].join(', ');
    throw new UpstreamFailure(
      'LAYOUT_CHANGED',
      `reddit: ${what} listing has ${children.length} children but no posts (kinds: ${kinds})`,
    );
  }

  const sources: Source[] = [];
  const seen = new Set<string>();
  const md: string[] = [];
  const txt: string[] = [];
  for (const p of posts) {
    if (seen.has(p.permalink)) continue;
    seen.add(p.permalink);
    const n = sources.length + 1;
    sources.push({ position: n, url: p.permalink, label: p.title });
    const meta = metaLine(p);
    const snippet = trimmed(p.selftext);
    md.push(`${n}. **[${escapeLinkText(p.title)}](${p.permalink})** — ${meta}`);
    txt.push(`${n}. ${p.title} — ${meta}`);
    if (snippet) {
      md.push(`   ${snippet}`);
      txt.push(`   ${markdownToText(snippet).replace(/\s+/g, ' ')}`);
    }
  }
  const after = str(asObject(asObject(body)?.data)?.after);
  return {
    text: txt.join('\n'),
    markdown: md.join('\n'),
    sources,
    raw: { response: body },
    extra: { posts, after },
  };
}

/** "r/python · u/alice · 42 points · 17 comments" (+ the linked domain for link posts). */
export function metaLine(p: ForumPost): string {
  const parts = [
    `r/${p.subreddit}`,
    p.author ? `u/${p.author}` : '[deleted]',
    plural(p.score, 'point'),
    plural(p.numComments, 'comment'),
  ];
  if (p.flair) parts.push(p.flair);
  if (p.domain && !p.isSelf) parts.push(p.domain);
  return parts.join(' · ');
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function escapeLinkText(s: string): string {
  return s.replace(/([[\]\\])/g, '\\$1');
}

function trimmed(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  if (one.length <= SNIPPET_CHARS) return one;
  const cut = one.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > SNIPPET_CHARS * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
