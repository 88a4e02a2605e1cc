import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planForumCall, readTarget } from '../../src/engines/forum/forum-request.js';
import { parseListing } from '../../src/engines/forum/listing-parser.js';
import { redditJson } from '../../src/engines/forum/reddit-status.js';
import type { ForumComment, ForumPost } from '../../src/engines/forum/reddit-things.js';
import { postRefFromUrl } from '../../src/engines/forum/reddit-urls.js';
import { parseThread } from '../../src/engines/forum/thread-parser.js';
import type { HttpResponse } from '../../src/transport/http-transport.js';
import { failureOf } from '../helpers/failures.js';

const raw = (name: string) => fs.readFileSync(new URL(`../fixtures/forum/${name}`, import.meta.url));
const json = (name: string): unknown => JSON.parse(raw(name).toString('utf8'));

function response(
  status: number,
  contentType: string,
  body: Buffer,
  headers: Record<string, string> = {},
): HttpResponse {
  return {
    status,
    headers: { 'content-type': contentType, ...headers },
    url: 'https://www.reddit.com/search.json?q=x',
    body,
    text: () => body.toString('utf8'),
    json: () => JSON.parse(body.toString('utf8')) as unknown,
  };
}

describe('FORUM listing parser', () => {
  it('turns a site-wide search listing into a numbered list with permalinks as sources', () => {
    const r = parseListing(json('search-listing.json'), 'search');
    expect(r.sources).toEqual([
      {
        position: 1,
        url: 'https://www.reddit.com/r/Python/comments/1q2w3e4/pydantic_v2_migration_what_broke_for_yo/',
        label: 'Pydantic v2 migration: what broke for you?',
      },
      {
        position: 2,
        url: 'https://www.reddit.com/r/programming/comments/1r5t6y7/pydantic_212_released_with_faster_valid/',
        label: 'Pydantic 2.12 released with faster validation',
      },
      {
        position: 3,
        url: 'https://www.reddit.com/r/learnpython/comments/1a9s8d7/help_pydantic_model_with_optional_nest/',
        label: '[Help] Pydantic model with optional nested list',
      },
    ]);
    const lines = r.markdown.split('\n');
    expect(lines[0]).toBe(
      '1. **[Pydantic v2 migration: what broke for you?](https://www.reddit.com/r/Python/comments/1q2w3e4/pydantic_v2_migration_what_broke_for_yo/)** — r/Python · u/alice_dev · 412 points · 87 comments · Discussion',
    );
    expect(lines[1]).toMatch(
      /^ {3}We moved a 40k-line service from Pydantic 1\.10 to 2\.x last month\. The biggest surprises/,
    );
    expect(r.markdown).toContain('— r/programming · u/release_bot · 1290 points · 143 comments · docs.pydantic.dev');
    // Brackets in titles are escaped in link text and kept as-is in text.
    expect(r.markdown).toContain('**[\\[Help\\] Pydantic model with optional nested list]');
    expect(r.text).toContain(
      '3. [Help] Pydantic model with optional nested list — r/learnpython · u/newbie_42 · 3 points · 1 comment',
    );
    // The long selftext is trimmed at a word boundary.
    const snippet = lines.find((l) => l.startsWith('   I have a model')) ?? '';
    expect(snippet.length).toBeLessThanOrEqual(3 + 281);
    expect(snippet.endsWith('…')).toBe(true);
    expect(r.text).not.toContain('`');

    const extra = r.extra as { posts: ForumPost[]; after: string | null };
    expect(extra.after).toBe('t3_1a9s8d7');
    expect(extra.posts[1]).toMatchObject({
      id: '1r5t6y7',
      isSelf: false,
      linkUrl: 'https://docs.pydantic.dev/latest/changelog/',
      domain: 'docs.pydantic.dev',
      createdAt: '2025-12-31T00:00:00.000Z',
    });
    expect(extra.posts[0]).toMatchObject({ linkUrl: null, domain: null, flair: 'Discussion', author: 'alice_dev' });
  });

  it('parses a subreddit search and a post without selftext', () => {
    const r = parseListing(json('subreddit-search.json'), 'search in r/rust');
    expect(r.sources.map((s) => s.label)).toEqual([
      'Async traits are stable: how are you using them?',
      'Tokio vs async-std in 2026',
    ]);
    expect(r.markdown.split('\n')).toHaveLength(3);
    expect(r.text).toContain('2. Tokio vs async-std in 2026 — r/rust · u/crab_person · 88 points · 1 comment');
  });

  it('parses user submissions, link posts to images included', () => {
    const r = parseListing(json('user-posts.json'), 'u/shutter_bug posts');
    expect(r.sources).toHaveLength(2);
    const posts = (r.extra as { posts: ForumPost[] }).posts;
    expect(posts[0]).toMatchObject({
      author: 'shutter_bug',
      linkUrl: 'https://i.redd.it/abc123def456.jpeg',
      subreddit: 'photography',
    });
    expect(r.markdown).toContain('   Portra 400 or Ektar 100? Mostly snowy scenes, overcast light.');
  });

  it('reports an empty listing as NO_ANSWER and a drifted one as LAYOUT_CHANGED', () => {
    expect(failureOf(() => parseListing(json('empty-listing.json'), 'search')).kind).toBe('NO_ANSWER');
    expect(failureOf(() => parseListing(json('drifted-listing.json'), 'search')).kind).toBe('LAYOUT_CHANGED');
    expect(
      failureOf(() =>
        parseListing(
          { kind: 'Listing', data: { children: [{ kind: 't5', data: { display_name: 'python' } }] } },
          'search',
        ),
      ).kind,
    ).toBe('LAYOUT_CHANGED');
    expect(
      failureOf(() =>
        parseListing({ kind: 'Listing', data: { children: [{ kind: 't3', data: { id: 'x' } }] } }, 'search'),
      ).kind,
    ).toBe('LAYOUT_CHANGED');
  });
});

describe('FORUM thread parser', () => {
  it('renders a post with nested comments depth-first and counts more stubs into raw', () => {
    const r = parseThread(json('post-with-comments.json'));
    expect(r.sources).toEqual([
      {
        position: 1,
        url: 'https://www.reddit.com/r/python/comments/1abcde/what_is_your_favourite_typing_trick/',
        label: 'What is your favourite typing trick?',
      },
    ]);
    expect(r.markdown).toBe(
      [
        '# What is your favourite typing trick?',
        '',
        'r/python · u/op_user · 321 points · 140 comments · 2026-01-01',
        '',
        'Mine is `typing.assert_never` for exhaustive matches.',
        '',
        'Share yours & explain why.',
        '',
        '## Comments',
        '',
        '- **u/alice (42 points)**: Top comment: `TypedDict` with `Required[]`.',
        '',
        '  Second paragraph of the top comment.',
        '  - **u/bob (7 points)**: Reply with `code` and a [link](https://example.com/docs).',
        '  - **u/dave (5 points)**: Second reply, which has its own reply.',
        '    - **u/carol (2 points)**: Nested deeper.',
        '    - _thread continues_',
        '  - _7 more replies_',
        '- **u/op_user (12 points) [OP]**: Thanks everyone, very helpful!',
        '',
        '_120 more comments not loaded._',
      ].join('\n'),
    );
    expect(r.text).toContain('  - u/bob (7 points): Reply with code and a link.');
    expect(r.text).not.toMatch(/\*\*|`/);
    expect(r.raw).toMatchObject({
      more: {
        stubs: 3,
        count: 127,
        continueThread: 1,
        ids: ['k9', 'ka', 'kb', 'kc', 'kd', 'ke', 'kf', 'kz', 'ky', 'kx'],
      },
    });
    const extra = r.extra as { post: ForumPost; comments: ForumComment[]; moreComments: number };
    expect(extra.post).toMatchObject({ id: '1abcde', author: 'op_user', isSelf: true, numComments: 140 });
    expect(extra.comments).toHaveLength(2);
    expect(extra.comments[0]?.replies.map((c) => c.author)).toEqual(['bob', 'dave']);
    expect(extra.comments[0]?.moreReplies).toBe(7);
    expect(extra.comments[0]?.replies[1]?.replies[0]).toMatchObject({
      id: 'k3',
      depth: 2,
      permalink: 'https://www.reddit.com/r/python/comments/1abcde/what_is_your_favourite_typing_trick/k3/',
    });
    expect(extra.comments[1]?.isSubmitter).toBe(true);
  });

  it('adds the linked URL of a link post as the second source', () => {
    const r = parseThread(json('link-post.json'));
    expect(r.sources).toEqual([
      {
        position: 1,
        url: 'https://www.reddit.com/r/technology/comments/1lnkpo/eu_adopts_new_rules_for_ai_systems/',
        label: 'EU adopts new rules for AI systems',
      },
      {
        position: 2,
        url: 'https://www.example-news.com/2026/01/eu-ai-rules?utm_source=reddit',
        label: 'example-news.com',
      },
    ]);
    expect(r.markdown).toContain(
      'Link: [example-news.com](https://www.example-news.com/2026/01/eu-ai-rules?utm_source=reddit)',
    );
    expect(r.markdown).toContain('- **u/policy_wonk (210 points)**: The enforcement dates matter more than the text.');
    expect(r.raw).toMatchObject({ more: { stubs: 0, count: 0 } });
  });

  it('keeps deleted authors and removed bodies visible as such', () => {
    const r = parseThread(json('deleted-comments.json'));
    expect(r.markdown).toContain('r/AskHistorians · [deleted] · 77 points');
    expect(r.markdown).toContain('- **[deleted] (1 point)**: _[removed]_');
    expect(r.markdown).toContain(
      '- **[deleted] (4 points)**: _[deleted]_\n  - **u/historian_x (30 points)**: ' +
        'The original answer cited the 1879 inquiry.',
    );
    const extra = r.extra as { post: ForumPost; comments: ForumComment[] };
    expect(extra.post.author).toBeNull();
    expect(extra.comments.map((c) => [c.author, c.deleted])).toEqual([
      [null, true],
      [null, true],
    ]);
  });

  it('fails loudly on shapes that are not a thread', () => {
    expect(failureOf(() => parseThread(json('search-listing.json'))).kind).toBe('LAYOUT_CHANGED');
    expect(failureOf(() => parseThread([json('empty-listing.json'), json('empty-listing.json')])).kind).toBe(
      'NO_ANSWER',
    );
    const bad = json('link-post.json') as unknown[];
    expect(
      failureOf(() =>
        parseThread([
          bad[0],
          { kind: 'Listing', data: { children: [{ kind: 't1', data: { id: 'x', body: 'y', replies: 42 } }] } },
        ]),
      ).kind,
    ).toBe('LAYOUT_CHANGED');
  });
});

describe('FORUM answer classification', () => {
  it('detects the HTML Blocked page as UPSTREAM_BLOCKED', () => {
    const f = failureOf(() => redditJson(response(403, 'text/html; charset=utf-8', raw('blocked.html')), 'anonymous'));
    expect(f.kind).toBe('UPSTREAM_BLOCKED');
  });

  it('maps 429 to RATE_LIMITED with the reset hint', () => {
    const f = failureOf(() =>
      redditJson(
        response(429, 'application/json; charset=UTF-8', raw('rate-limited.json'), {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': '42',
        }),
        'oauth',
      ),
    );
    expect(f.kind).toBe('RATE_LIMITED');
    expect(f.retryAfterMs).toBe(42_000);
  });

  it('maps a closed subreddit to PAGE_UNAVAILABLE saying what to change, and an unknown post to NO_ANSWER', () => {
    const priv = failureOf(() =>
      redditJson(response(403, 'application/json; charset=UTF-8', raw('private-subreddit.json')), 'anonymous'),
    );
    expect(priv.kind).toBe('PAGE_UNAVAILABLE');
    expect(priv.message).toContain('private');
    expect(priv.clientMessage).toMatch(/private.*Choose another community/);
    const quarantined = Buffer.from(
      '{"reason": "quarantined", "quarantine_message": "", "message": "Forbidden", "error": 403}',
    );
    expect(
      failureOf(() => redditJson(response(403, 'application/json', quarantined), 'anonymous')).clientMessage,
    ).toMatch(/quarantined/);
    expect(failureOf(() => redditJson(response(404, 'application/json', raw('not-found.json')), 'oauth')).kind).toBe(
      'NO_ANSWER',
    );
  });

  it('takes a JSON 403 to an anonymous reader for a refusal of that resource, not a block of the address', () => {
    const f = failureOf(() =>
      redditJson(response(403, 'application/json', Buffer.from('{"message": "Forbidden", "error": 403}')), 'anonymous'),
    );
    expect(f.kind).toBe('PAGE_UNAVAILABLE');
    expect(f.clientMessage).toMatch(/choose another community or post/);
  });

  it('separates credentials, server errors and unexpected HTML', () => {
    expect(
      failureOf(() =>
        redditJson(
          response(401, 'application/json', Buffer.from('{"message": "Unauthorized", "error": 401}')),
          'oauth',
        ),
      ).kind,
    ).toBe('AUTH_FAILED');
    expect(
      failureOf(() =>
        redditJson(response(403, 'application/json', Buffer.from('{"message": "Forbidden", "error": 403}')), 'oauth'),
      ).kind,
    ).toBe('AUTH_FAILED');
    expect(
      failureOf(() =>
        redditJson(response(503, 'text/html', Buffer.from('<html><title>Service Unavailable</title></html>')), 'oauth'),
      ).kind,
    ).toBe('UPSTREAM_ERROR');
    expect(
      failureOf(() =>
        redditJson(response(200, 'text/html', Buffer.from('<html><title>reddit</title></html>')), 'anonymous'),
      ).kind,
    ).toBe('LAYOUT_CHANGED');
    expect(
      failureOf(() => redditJson(response(200, 'application/json', Buffer.from('{"kind": "Lis')), 'anonymous')).kind,
    ).toBe('UPSTREAM_ERROR');
    expect(redditJson(response(200, 'application/json', raw('empty-listing.json')), 'anonymous')).toMatchObject({
      kind: 'Listing',
    });
  });
});

describe('FORUM request planning and post URLs', () => {
  it('normalises every accepted post URL form to the post id', () => {
    const cases: Array<[string, string, string | null]> = [
      ['https://www.reddit.com/r/python/comments/1abcde/what_is_your_favourite_typing_trick/', '1abcde', null],
      [
        'https://old.reddit.com/r/python/comments/1abcde/what_is_your_favourite_typing_trick/?sort=new#top',
        '1abcde',
        null,
      ],
      ['https://new.reddit.com/r/python/comments/1ABCDE/', '1abcde', null],
      ['https://np.reddit.com/r/python/comments/1abcde/x/k1/', '1abcde', 'k1'],
      ['https://m.reddit.com/r/python/comments/1abcde', '1abcde', null],
      ['https://redd.it/1abcde', '1abcde', null],
      ['reddit.com/comments/1abcde', '1abcde', null],
      ['https://www.reddit.com/gallery/1abcde', '1abcde', null],
    ];
    for (const [url, postId, commentId] of cases)
      expect(postRefFromUrl(url)).toEqual({ kind: 'post', postId, commentId });
    expect(postRefFromUrl('https://www.reddit.com/r/python/s/AbCdEf123')).toEqual({
      kind: 'share',
      community: 'python',
      token: 'AbCdEf123',
    });
  });

  it('rejects non-Reddit and non-post URLs with a BAD_PAYLOAD that says what to change', () => {
    const other = failureOf(() => postRefFromUrl('https://news.ycombinator.com/item?id=1'));
    expect(other.kind).toBe('BAD_PAYLOAD');
    expect(other.clientMessage).toMatch(
      /^payload\.url must be a Reddit post link such as https:\/\/www\.reddit\.com\/r\//,
    );
    const sub = failureOf(() => postRefFromUrl('https://www.reddit.com/r/python/'));
    expect(sub.clientMessage).toContain('action "feed" with payload.community');
    expect(failureOf(() => postRefFromUrl('not a url')).kind).toBe('BAD_PAYLOAD');
  });

  it('plans each mode with raw_json=1', () => {
    expect(planForumCall({ query: 'pydantic v2', community: 'r/Python' })).toEqual({
      mode: 'search',
      shape: 'listing',
      path: '/r/Python/search',
      params: {
        q: 'pydantic v2',
        sort: 'relevance',
        t: 'all',
        type: 'link',
        limit: '25',
        raw_json: '1',
        restrict_sr: '1',
      },
      what: 'search in r/Python',
    });
    expect(planForumCall({ prompt: 'rust async' }).path).toBe('/search');
    expect(planForumCall({ action: 'feed' })).toMatchObject({ path: '/hot', params: { limit: '25', raw_json: '1' } });
    expect(planForumCall({ action: 'feed', community: 'rust' }).path).toBe('/r/rust/hot');
    expect(planForumCall({ action: 'user_posts', user: 'u/spez' })).toMatchObject({
      path: '/user/spez/submitted',
      params: { sort: 'new', raw_json: '1' },
    });
    const ref = readTarget({ url: 'https://old.reddit.com/r/python/comments/1abcde/x/k1/' });
    expect(ref).toEqual({ kind: 'post', postId: '1abcde', commentId: 'k1' });
    expect(planForumCall({ url: 'x' }, ref?.kind === 'post' ? ref : undefined)).toMatchObject({
      path: '/comments/1abcde',
      params: { raw_json: '1', comment: 'k1' },
    });
    expect(readTarget({ query: 'x' })).toBeNull();
    expect(failureOf(() => planForumCall({ action: 'feed', community: 'not a sub!' })).kind).toBe('BAD_PAYLOAD');
    expect(failureOf(() => planForumCall({ action: 'user_posts', user: 'x' })).clientMessage).toMatch(
      /^payload\.user must be/,
    );
    expect(failureOf(() => planForumCall({ action: 'search', url: 'https://redd.it/1abcde' })).kind).toBe(
      'BAD_PAYLOAD',
    );
  });
});
