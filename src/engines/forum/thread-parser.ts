import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { EngineResult, Source } from '../engine-result.js';
import { markdownToText } from '../common/markdown-text.js';
import { displayHost } from '../common/urls.js';
import { escapeLinkText, metaLine, plural } from './listing-parser.js';
import { dayOf, listingChildren, num, str, toComment, toPost, type ForumComment, type Json } from './reddit-things.js';

/** Unloaded comments: `more` stubs (fetchable via morechildren) and "continue this thread" markers. */
interface MoreStats {
  stubs: number;
  /** Comments the stubs stand for. */
  count: number;
  continueThread: number;
  ids: string[];
}

/**
 * Parses a post with its first page of comments: the two-element array [post Listing, comments
 * Listing] of docs/engines.md#reddit-responses. Markdown is `# title`, a metadata line, the selftext, then the
 * comments as nested bullets depth-first; sources[0] is the permalink, sources[1] the linked URL
 * of a link post. `more` stubs are counted into `raw`.
 */
export function parseThread(body: unknown): EngineResult {
  if (!Array.isArray(body) || body.length < 2)
    throw new UpstreamFailure('LAYOUT_CHANGED', 'reddit: thread is not a [post, comments] array');
  const postThing = listingChildren(body[0], 'thread post').find((c) => c.kind === 't3');
  if (!postThing) throw new UpstreamFailure('NO_ANSWER', 'reddit: the thread listing holds no post');
  const post = toPost(postThing.data);
  const more: MoreStats = { stubs: 0, count: 0, continueThread: 0, ids: [] };
  const { comments, moreCount } = commentTree(listingChildren(body[1], 'thread comments'), more, 'thread comments');

  const meta = [metaLine(post), dayOf(post.createdAt)].filter(Boolean).join(' · ');
  const md: string[] = [`# ${post.title}`, '', meta];
  const txt: string[] = [post.title, '', meta];
  if (post.linkUrl) {
    md.push('', `Link: [${escapeLinkText(post.domain ?? displayHost(post.linkUrl))}](${post.linkUrl})`);
    txt.push('', `Link: ${post.linkUrl}`);
  }
  if (post.selftext.trim()) {
    md.push('', post.selftext.trim());
    txt.push('', markdownToText(post.selftext));
  }
  if (comments.length > 0) {
    md.push('', '## Comments', '');
    txt.push('', 'Comments', '');
    renderComments(comments, 0, md, txt);
  }
  if (moreCount > 0) {
    md.push('', `_${plural(moreCount, 'more comment')} not loaded._`);
    txt.push('', `${plural(moreCount, 'more comment')} not loaded.`);
  }

  const sources: Source[] = [{ position: 1, url: post.permalink, label: post.title }];
  if (post.linkUrl) sources.push({ position: 2, url: post.linkUrl, label: post.domain ?? displayHost(post.linkUrl) });
  return {
    text: txt.join('\n').trim(),
    markdown: md.join('\n').trim(),
    sources,
    raw: { response: body, more },
    extra: { post, comments, moreComments: more.count },
  };
}

interface CommentLevel {
  comments: ForumComment[];
  moreCount: number;
  continues: boolean;
}

function commentTree(children: Array<{ kind: string; data: Json }>, more: MoreStats, where: string): CommentLevel {
  const level: CommentLevel = { comments: [], moreCount: 0, continues: false };
  for (const { kind, data } of children) {
    if (kind === 'more') {
      const ids = Array.isArray(data.children) ? data.children.filter((x): x is string => typeof x === 'string') : [];
      const count = Math.max(num(data.count) ?? 0, ids.length);
      more.stubs++;
      more.count += count;
      more.ids.push(...ids);
      // `id: "_"` with count 0 is the "continue this thread" link, not a fetchable stub.
      if (str(data.id) === '_' || count === 0) {
        more.continueThread++;
        level.continues = true;
      }
      level.moreCount += count;
      continue;
    }
    if (kind !== 't1') continue;
    const base = toComment(data);
    let sub: CommentLevel = { comments: [], moreCount: 0, continues: false };
    if (data.replies !== '' && data.replies !== undefined && data.replies !== null) {
      sub = commentTree(listingChildren(data.replies, `${where} replies of ${base.id}`), more, where);
    }
    level.comments.push({ ...base, replies: sub.comments, moreReplies: sub.moreCount, threadContinues: sub.continues });
  }
  return level;
}

function renderComments(list: ForumComment[], level: number, md: string[], txt: string[]): void {
  const indent = '  '.repeat(level);
  for (const c of list) {
    const who = c.author ? `u/${c.author}` : '[deleted]';
    const head = `${who} (${plural(c.score, 'point')})${c.isSubmitter ? ' [OP]' : ''}`;
    const body = c.deleted ? c.body : c.body.trim();
    md.push(...bullet(`${indent}- **${head}**: `, c.deleted ? `_${body}_` : body, `${indent}  `));
    txt.push(...bullet(`${indent}- ${head}: `, markdownToText(body), `${indent}  `));
    renderComments(c.replies, level + 1, md, txt);
    if (c.moreReplies > 0) {
      const n = `${c.moreReplies} more ${c.moreReplies === 1 ? 'reply' : 'replies'}`;
      md.push(`${indent}  - _${n}_`);
      txt.push(`${indent}  - ${n}`);
    } else if (c.threadContinues) {
      md.push(`${indent}  - _thread continues_`);
      txt.push(`${indent}  - thread continues`);
    }
  }
}

/** A bullet whose continuation lines (multi-paragraph comments) stay inside the item. */
function bullet(first: string, body: string, cont: string): string[] {
  const lines = body.split('\n');
  return [first + (lines[0] ?? ''), ...lines.slice(1).map((l) => (l.trim() ? cont + l : ''))];
}
