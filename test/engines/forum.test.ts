import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineConfig } from '../../src/config/engine-config.js';
import type { TaskPayload } from '../../src/domain/task.js';
import { forum } from '../../src/engines/forum/forum.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/transport/http-transport.js';
import { UndiciTransport, dispatcherFor } from '../../src/transport/undici-transport.js';
import { createLogger } from '../../src/ops/logger.js';
import { startSimulator, type Simulator } from '../../src/sandbox/server.js';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';
import { inlineParse } from '../../src/engines/parse-pool/pool.js';

const fastRetries = () =>
  writeConfig(tempDir(), { scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 } });

describe('FORUM end to end through the sandbox', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastRetries() });
  });
  afterAll(() => svc.stop());

  const forumTask = (payload: Record<string, unknown>) => runTask(svc, { taskType: 'FORUM', payload });

  it('searches all of Reddit', async () => {
    const r = await forumTask({ query: 'mechanical keyboards' });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.sources).toHaveLength(5);
    expect(r.response.sources.map((s: { position: number }) => s.position)).toEqual([1, 2, 3, 4, 5]);
    for (const s of r.response.sources)
      expect(s.url).toMatch(/^https:\/\/www\.reddit\.com\/r\/\w+\/comments\/[a-z0-9]+\/\w+\/$/);
    expect(r.response.markdown.split('\n')[0]).toMatch(
      new RegExp(
        String.raw`^1\. \*\*\[[^\]]*Mechanical keyboards[^\]]*\]\(https:\/\/www\.reddit\.com\/r\/.+\)\*\*` +
          String.raw` — r\/\w+ · u\/\w+ · \d+ points? · \d+ comments?`,
      ),
    );
    expect(r.response.posts).toHaveLength(5);
    expect(r.credits).toEqual({ creditsToCharge: 1, creditsCharged: 1 });
  });

  it('searches inside one community', async () => {
    const r = await forumTask({ query: 'grinder', community: 'r/espresso' });
    expect(r.task.status).toBe('COMPLETED');
    expect(new Set(r.response.posts.map((p: { subreddit: string }) => p.subreddit))).toEqual(new Set(['espresso']));
  });

  it('reads one post by its old.reddit.com URL and by its redd.it short link alike', async () => {
    const byOld = await forumTask({ url: 'https://old.reddit.com/r/whatever/comments/1k9x2q7/some_title/?sort=top' });
    const byShort = await forumTask({ action: 'read', url: 'https://redd.it/1k9x2q7' });
    expect(byOld.task.status).toBe('COMPLETED');
    expect(byShort.task.status).toBe('COMPLETED');
    expect(byShort.response.markdown).toBe(byOld.response.markdown);
    const post = byOld.response.post;
    expect(post.id).toBe('1k9x2q7');
    expect(byOld.response.sources[0]).toEqual({ position: 1, url: post.permalink, label: post.title });
    expect(byOld.response.markdown.startsWith(`# ${post.title}\n`)).toBe(true);
    expect(byOld.response.markdown).toContain('## Comments');
    expect(byOld.response.markdown).toMatch(/\n {2}- \*\*u\/\w+ \(-?\d+ points?\)/);
    expect(byOld.response.markdown).toContain('_[removed]_');
    expect(byOld.response.moreComments).toBe(41);
    if (!post.isSelf) expect(byOld.response.sources[1].url).toBe(post.linkUrl);
  });

  it('resolves a share link through its redirect', async () => {
    const r = await forumTask({ url: 'https://www.reddit.com/r/python/s/AbCdEf123' });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.sources[0].url).toMatch(/^https:\/\/www\.reddit\.com\/r\/\w+\/comments\/[a-z0-9]+\//);
  });

  it('lists the front page and a community feed', async () => {
    const front = await forumTask({ action: 'feed' });
    expect(front.task.status).toBe('COMPLETED');
    expect(front.response.posts).toHaveLength(6);
    const rust = await forumTask({ action: 'feed', community: 'rust' });
    expect(rust.task.status).toBe('COMPLETED');
    expect(new Set(rust.response.posts.map((p: { subreddit: string }) => p.subreddit))).toEqual(new Set(['rust']));
  });

  it("lists a user's submissions", async () => {
    const r = await forumTask({ action: 'user_posts', user: 'u/spez' });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.posts.length).toBeGreaterThan(0);
    for (const p of r.response.posts) expect(p.author).toBe('spez');
  });

  it('fails with ENGINE_FAILED when every attempt meets the Blocked page', async () => {
    const r = await forumTask({ query: 'keyboards sandbox:captcha' });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe('ENGINE_FAILED: The engine request failed.');
  });

  it('fails with ENGINE_NO_RESULT on an empty listing and an unknown post', async () => {
    for (const payload of [{ query: 'nothing here sandbox:empty' }, { url: 'https://redd.it/0zzzz' }]) {
      const r = await forumTask(payload);
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toMatch(/^ENGINE_NO_RESULT: /);
    }
  });

  it(
    'fails a private community with PAGE_UNAVAILABLE saying what to change, ' +
      'once, without cooling the exit address',
    async () => {
      const r = await forumTask({ action: 'feed', community: 'private_club' });
      expect(r.task.status).toBe('FAILED');
      expect(r.error).toBe(
        'PAGE_UNAVAILABLE: This community is private: only its approved members can read it. Choose another community.',
      );
      expect((await svc.app.store.tasks.get({ id: r.task.id, notBefore: 0 }))?.attempts).toBe(1);
      expect(svc.app.pools.exits.list().filter((x) => svc.app.pools.exits.coolingUntil(x) > 0)).toEqual([]);
    },
  );

  it('fails a non-Reddit URL with BAD_PAYLOAD saying what to change', async () => {
    const r = await forumTask({ url: 'https://news.ycombinator.com/item?id=1' });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^BAD_PAYLOAD: payload\.url must be a Reddit post link such as /);
  });
});

/** The real transport, counting what it sends (to see the token cache work). */
class CountingTransport implements HttpTransport {
  readonly sent: HttpRequest[] = [];
  constructor(private readonly inner: HttpTransport) {}
  get exitId(): string {
    return this.inner.exitId;
  }
  request(req: HttpRequest): Promise<HttpResponse> {
    this.sent.push(req);
    return this.inner.request(req);
  }
}

describe('FORUM adapter with OAuth app credentials', () => {
  let sim: Simulator;
  const log = createLogger('silent');
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  function attempt(payload: TaskPayload, options: Record<string, string>, http: HttpTransport) {
    const config: EngineConfig = {
      mode: 'anon',
      concurrency: 1,
      timeoutMs: 5000,
      maxAttempts: 1,
      credits: 1,
      neverServe: [],
      paused: false,
      upstream: {
        baseUrl: `${sim.url}/reddit`,
        headers: {},
        options: { userAgent: 'test:aeq:0.1.0 (by /u/aeq-tests)', ...options },
      },
    };
    return forum.run({
      taskId: 't',
      tenant: 'default',
      taskType: 'FORUM',
      payload,
      country: 'US',
      config,
      http,
      account: null,
      signal: AbortSignal.timeout(5000),
      parse: inlineParse(),
      log,
      attempt: 1,
    });
  }

  it('gets an app-only token once, then calls the OAuth paths without .json', async () => {
    const http = new CountingTransport(
      new UndiciTransport('test', dispatcherFor({ id: 'test', country: 'US', maxConcurrent: 4 }, false), false),
    );
    const creds = { clientId: 'client-a', clientSecret: 'secret-a' };
    const first = await attempt({ query: 'home espresso' }, creds, http);
    const second = await attempt({ url: 'https://www.reddit.com/r/x/comments/1k9x2q7/t/' }, creds, http);
    expect(first.raw).toMatchObject({ request: { access: 'oauth', path: '/search' } });
    expect(second.raw).toMatchObject({ request: { access: 'oauth', path: '/comments/1k9x2q7' } });
    const tokenCalls = http.sent.filter((r) => r.url.endsWith('/api/v1/access_token'));
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]?.body).toBe('grant_type=client_credentials');
    expect(tokenCalls[0]?.headers?.authorization).toBe(`Basic ${Buffer.from('client-a:secret-a').toString('base64')}`);
    const apiCalls = http.sent.filter((r) => !r.url.endsWith('/access_token'));
    expect(apiCalls.map((r) => new URL(r.url).pathname)).toEqual(['/reddit/search', '/reddit/comments/1k9x2q7']);
    for (const r of apiCalls) {
      expect(r.headers?.authorization).toMatch(/^bearer sim-/);
      expect(r.headers?.['user-agent']).toBe('test:aeq:0.1.0 (by /u/aeq-tests)');
      expect(new URL(r.url).searchParams.get('raw_json')).toBe('1');
    }
    // Nothing secret in what the result keeps.
    expect(JSON.stringify([first, second])).not.toMatch(/secret-a|sim-[a-z0-9]+"|bearer/);
  });

  it('calls the anonymous .json paths without credentials', async () => {
    const http = new CountingTransport(
      new UndiciTransport('test', dispatcherFor({ id: 'test', country: 'US', maxConcurrent: 4 }, false), false),
    );
    const r = await attempt({ action: 'feed', community: 'rust' }, {}, http);
    expect(r.raw).toMatchObject({ request: { access: 'anonymous' }, rateLimit: { remaining: 99 } });
    expect(http.sent.map((s) => new URL(s.url).pathname)).toEqual(['/reddit/r/rust/hot.json']);
    expect(http.sent[0]?.headers?.authorization).toBeUndefined();
  });
});
