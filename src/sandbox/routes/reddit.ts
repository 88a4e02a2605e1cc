import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { fakeSentences, isKorean } from '../text-gen.js';

/**
 * Reddit (docs/engines.md#reddit): `/api/v1/access_token`, and the API paths in both forms — anonymous
 * with the `.json` suffix (www.reddit.com) and OAuth without it (oauth.reddit.com, bearer token
 * required). Content is deterministic from the query, community, user or post id. Directives in
 * a search query: captcha -> the 403 "Blocked" HTML page, empty -> an empty Listing. Communities
 * named `private…` answer the private-subreddit 403; post ids starting with `0` are unknown (404).
 */
export function registerReddit(app: FastifyInstance, sim: SimContext): void {
  app.post('/api/v1/access_token', async (req, reply) => {
    const basic = /^Basic\s+(\S+)/i.exec(String(req.headers.authorization ?? ''))?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    if (!id || !secret) return reply.code(401).send({ message: 'Unauthorized', error: 401 });
    if (new URLSearchParams(String(req.body ?? '')).get('grant_type') !== 'client_credentials') {
      return reply.send({ error: 'unsupported_grant_type' });
    }
    return reply.send({
      access_token: `sim-${sim.hash(id, 'token').toString(36)}`,
      token_type: 'bearer',
      expires_in: 86400,
      scope: '*',
    });
  });

  app.get('/*', async (req, reply) => {
    let path = `/${(req.params as { '*': string })['*']}`.replace(/(?<!\/)\/+$/, '') || '/';
    const share = /^\/r\/([^/]+)\/s\/([^/]+)$/.exec(path);
    if (share?.[1] && share[2]) {
      const { id, slug } = threadIdentity(sim, postId(sim, `share:${share[2]}`));
      return reply
        .code(301)
        .header('location', `https://www.reddit.com/r/${share[1]}/comments/${id}/${slug}/?share_id=${share[2]}`)
        .send();
    }
    const anonymous = path.endsWith('.json');
    if (anonymous) path = path.slice(0, -'.json'.length) || '/';
    if (path === '') path = '/';
    if (anonymous && !/\S/.test(String(req.headers['user-agent'] ?? ''))) return blocked(reply);
    if (!anonymous && !/^bearer sim-\w+$/i.test(String(req.headers.authorization ?? ''))) {
      return reply.code(401).send({ message: 'Unauthorized', error: 401 });
    }
    reply.header('x-ratelimit-used', '1').header('x-ratelimit-remaining', '99.0').header('x-ratelimit-reset', '300');
    return route(sim, path, req, reply);
  });
}

async function route(sim: SimContext, path: string, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const q = req.query as Record<string, string | undefined>;
  let m = /^\/(?:r\/([^/]+)\/)?search$/.exec(path);
  if (m) {
    const restrict = ['1', 'on', 'true'].includes(q.restrict_sr ?? '');
    const sub = m[1] && restrict ? m[1] : null;
    if (sub && isPrivate(sub)) return privateSub(reply);
    const text = q.q ?? '';
    const d = await sim.gate('reddit:search', `${sub ?? ''}\u0000${text}`, reply, serverError);
    if (!d) return reply;
    if (d.captcha) return blocked(reply);
    if (d.empty) return reply.send(listing([]));
    const topic = sim.clean(text) || 'reddit';
    return reply.send(listing(posts(sim, `search:${sub ?? ''}:${topic}`, topic, 5, { sub }), null));
  }
  m = /^\/(?:r\/[^/]+\/)?comments\/([a-z0-9]+)(?:\/[^/]*)?(?:\/([a-z0-9]+))?$/i.exec(path);
  if (m?.[1]) {
    if (m[1].startsWith('0')) return reply.code(404).send({ message: 'Not Found', error: 404 });
    return reply.send(thread(sim, m[1].toLowerCase()));
  }
  m = /^(?:\/r\/([^/]+))?(?:\/(hot|new|top|rising|controversial))?$/.exec(path === '/' ? '' : path);
  if (m) {
    const sub = m[1] ?? null;
    if (sub && isPrivate(sub)) return privateSub(reply);
    const topic = sub ?? 'front page';
    return reply.send(
      listing(
        posts(sim, `feed:${sub ?? ''}:${m[2] ?? 'hot'}`, topic, 6, {
          sub: sub && !['all', 'popular'].includes(sub) ? sub : null,
        }),
        't3_1zzzzzz',
      ),
    );
  }
  m = /^\/user\/([^/]+)\/submitted$/.exec(path);
  if (m?.[1]) {
    return reply.send(listing(posts(sim, `user:${m[1].toLowerCase()}`, `${m[1]}'s hobby`, 4, { author: m[1] }), null));
  }
  return reply.code(404).send({ message: 'Not Found', error: 404 });
}

const serverError = (reply: FastifyReply) => reply.code(500).send({ message: 'Internal Server Error', error: 500 });

function isPrivate(sub: string): boolean {
  return /^private/i.test(sub);
}

function privateSub(reply: FastifyReply): FastifyReply {
  return reply.code(403).send({ reason: 'private', message: 'Forbidden', error: 403 });
}

/** The network-policy block page of docs/engines.md#reddit-access. */
function blocked(reply: FastifyReply): FastifyReply {
  return reply
    .code(403)
    .header('content-type', 'text/html; charset=utf-8')
    .send(
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
        '<title>Blocked</title></head><body><div class="container">' +
        '<h1>whoa there, pardner!</h1><p>Your request has been blocked due to a network policy.</p>' +
        '<p>Try logging in or creating an account <a href="https://www.reddit.com/login/">here</a> to get back to browsing.</p>' +
        "<p>If you're running a script or application, please register or sign in with your developer credentials " +
        '<a href="https://www.reddit.com/wiki/api/">here</a>. Additionally make sure your User-Agent is not empty and is something unique and descriptive and try again.</p>' +
        '<p>When contacting us, please include your Reddit account along with the following code:</p>' +
        '<p class="small">019bd6a4-5c2e-7f31-9d0a-6b2f3c4d5e6f</p></div></body></html>',
    );
}

type Thing = { kind: string; data: Record<string, unknown> };

function listing(children: Thing[], after: string | null = null): Thing {
  return {
    kind: 'Listing',
    data: { after, before: null, dist: children.length, modhash: '', geo_filter: '', children },
  };
}

const SUBS = ['AskReddit', 'technology', 'BuyItForLife', 'personalfinance', 'explainlikeimfive', 'korea'];
const AUTHORS = ['quiet_fox', 'mapleleaf88', 'data_nomad', 'kettlebell_kim', 'throwaway_4471', 'seoul_searcher'];
const EN_TITLES = [
  '{t}: what do you recommend?',
  'Anyone else tried {t}?',
  '{t}: lessons after a year',
  'Is {t} worth it in 2026?',
  'Beginner question about {t}',
  'My honest review of {t}',
];
const KO_TITLES = ['{t} 추천 부탁드립니다', '{t} 써보신 분 계신가요?', '{t} 1년 사용 후기', '{t} 요즘도 괜찮나요?'];
const TOPICS = [
  'mechanical keyboards',
  'home espresso',
  'trail running shoes',
  'budget travel in Japan',
  'learning Rust',
  'sourdough baking',
];

function postId(sim: SimContext, seed: string): string {
  return `1${(sim.hash(seed, 'id') % 36 ** 6).toString(36).padStart(6, '0')}`;
}

function slugOf(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '_')
      .replace(/^_+|(?<!_)_+$/g, '')
      .slice(0, 40) || 'post'
  );
}

function posts(
  sim: SimContext,
  seed: string,
  topic: string,
  n: number,
  opts: { sub?: string | null; author?: string },
): Thing[] {
  return Array.from({ length: n }, (_, i) => fakePost(sim, `${seed}#${i}`, topic, opts));
}

function fakePost(
  sim: SimContext,
  seed: string,
  topic: string,
  opts: { sub?: string | null; author?: string; id?: string },
): Thing {
  const h = sim.hash(seed);
  const ko = isKorean(topic);
  const titles = ko ? KO_TITLES : EN_TITLES;
  const title = (titles[h % titles.length] as string).replace('{t}', capitalized(topic));
  const id = opts.id ?? postId(sim, seed);
  const sub = opts.sub ?? (SUBS[(h >>> 3) % SUBS.length] as string);
  const permalink = `/r/${sub}/comments/${id}/${slugOf(title)}/`;
  const isSelf = h % 3 !== 0;
  const url = isSelf ? `https://www.reddit.com${permalink}` : `https://example.com/articles/${slugOf(topic)}-${id}`;
  const created = 1767225600 + (h % 2_000_000);
  return {
    kind: 't3',
    data: {
      id,
      name: `t3_${id}`,
      title,
      selftext: isSelf ? selftextOf(sim, topic, h) : '',
      author: opts.author ?? (AUTHORS[(h >>> 5) % AUTHORS.length] as string),
      subreddit: sub,
      subreddit_name_prefixed: `r/${sub}`,
      score: (h >>> 7) % 5000,
      ups: (h >>> 7) % 5000,
      upvote_ratio: 0.9,
      num_comments: (h >>> 11) % 400,
      created_utc: created,
      created,
      permalink,
      url,
      domain: isSelf ? `self.${sub}` : 'example.com',
      is_self: isSelf,
      over_18: false,
      spoiler: false,
      stickied: false,
      locked: false,
      link_flair_text: null,
      thumbnail: isSelf ? 'self' : 'default',
      is_video: false,
      removed_by_category: null,
    },
  };
}

/** Two of the topic's filler sentences, chosen per post so listed posts differ. */
function selftextOf(sim: SimContext, topic: string, h: number): string {
  const s = fakeSentences(sim, capitalized(topic), 6);
  return [s[h % 6], s[(h >>> 4) % 6]].filter(Boolean).join(' ');
}

/** A post's topic, title and slug from its id alone, so every read of an id agrees. */
function threadIdentity(sim: SimContext, id: string): { id: string; topic: string; slug: string; title: string } {
  const topic = TOPICS[sim.hash(id, 'topic') % TOPICS.length] as string;
  const post = fakePost(sim, `thread:${id}`, topic, { id });
  const title = String(post.data.title);
  return { id, topic, slug: slugOf(title), title };
}

/** `[post Listing, comments Listing]` with nested replies, `""` replies, a deleted comment and `more` stubs. */
function thread(sim: SimContext, id: string): Thing[] {
  const { topic } = threadIdentity(sim, id);
  const post = fakePost(sim, `thread:${id}`, topic, { id });
  const permalink = String(post.data.permalink);
  const sub = String(post.data.subreddit);
  const says = fakeSentences(sim, capitalized(topic), 6);
  const c = (
    cid: string,
    author: string,
    body: string,
    depth: number,
    parent: string,
    replies: Thing | '' = '',
  ): Thing => ({
    kind: 't1',
    data: {
      id: cid,
      name: `t1_${cid}`,
      author,
      body,
      score: (sim.hash(id, cid) % 300) - 5,
      created_utc: Number(post.data.created_utc) + 600 * (depth + 1),
      parent_id: parent,
      link_id: `t3_${id}`,
      depth,
      is_submitter: author === post.data.author,
      stickied: false,
      distinguished: null,
      subreddit: sub,
      permalink: `${permalink}${cid}/`,
      replies,
    },
  });
  const more = (mid: string, parent: string, depth: number, count: number, children: string[]): Thing => ({
    kind: 'more',
    data: { count, name: `t1_${mid}`, id: mid, parent_id: parent, depth, children },
  });
  const replies = listing([
    c('c2', String(post.data.author), says[1] ?? '', 1, 't1_c1'),
    c(
      'c3',
      'data_nomad',
      `${says[2] ?? ''}\n\n${says[3] ?? ''}`,
      1,
      't1_c1',
      listing([c('c4', 'quiet_fox', says[4] ?? '', 2, 't1_c3'), more('_', 't1_c4', 3, 0, [])]),
    ),
    more('c9', 't1_c1', 1, 4, ['c9', 'ca', 'cb', 'cc']),
  ]);
  const comments = listing([
    c('c1', 'mapleleaf88', says[0] ?? '', 0, `t3_${id}`, replies),
    c('c5', '[deleted]', '[removed]', 0, `t3_${id}`),
    c('c6', 'kettlebell_kim', says[5] ?? '', 0, `t3_${id}`),
    more('cz', `t3_${id}`, 0, 37, ['cz', 'cy', 'cx']),
  ]);
  return [listing([post]), comments];
}

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
