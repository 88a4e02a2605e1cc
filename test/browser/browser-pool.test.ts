import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamFailure } from '../../src/domain/engine-errors.js';
import { BrowserPool } from '../../src/transport/browser/browser-pool.js';
import { createLogger } from '../../src/ops/logger.js';
import { asyncFailureOf } from '../helpers/failures.js';
import { CHROMIUM_PATH, chromiumAvailable } from './chromium.js';
import { eventually, startAuthProxy, startTestSite, type TestSite } from './test-site.js';

const DIRECT = { id: 'direct-test' };
const newPool = (maxPages = 4) =>
  new BrowserPool({ executablePath: CHROMIUM_PATH, maxPages, log: createLogger('silent'), guardPrivate: false });

/** The pool against the real system Chromium and a local site over real sockets. */
describe.skipIf(!chromiumAvailable())('browser pool', () => {
  let site: TestSite;
  let pool: BrowserPool | null = null;
  beforeAll(async () => {
    site = await startTestSite();
  });
  afterEach(async () => {
    await pool?.close();
    pool = null;
    for (const h of [...site.held.values()]) h.release();
  });
  afterAll(() => site.close());

  it('launches Chromium lazily, on the first page', async () => {
    pool = newPool();
    expect(pool.stats()).toMatchObject({ launches: 0, connected: false });
    const page = await pool
      .forAttempt({ exit: DIRECT, country: 'US', signal: new AbortController().signal })
      .render(`${site.url}/static`, { timeoutMs: 15_000 });
    expect(page.status).toBe(200);
    expect(pool.stats()).toMatchObject({ launches: 1, connected: true });
  });

  it('keeps at most maxPages pages open; the next attempt waits for a free one', async () => {
    pool = newPool(2);
    const signal = new AbortController().signal;
    const renders = ['a', 'b', 'c'].map((id) =>
      pool!
        .forAttempt({ exit: DIRECT, country: 'US', signal })
        .render(`${site.url}/hold?id=${id}`, { timeoutMs: 20_000 }),
    );
    await eventually(() => site.held.size === 2, 'two requests held');
    // The third attempt is queued for a page slot, so its request cannot have been sent.
    await eventually(() => pool!.stats().waiting === 1, 'one attempt waiting');
    expect(pool.stats()).toMatchObject({ pagesInUse: 2, waiting: 1 });
    expect(site.held.size).toBe(2);
    for (const h of [...site.held.values()]) h.release();
    await eventually(() => site.held.size === 1, 'the waiting attempt reached the site');
    for (const h of [...site.held.values()]) h.release();
    const pages = await Promise.all(renders);
    expect(pages.map((p) => /id="released">(\w)</.exec(p.html)?.[1]).sort()).toEqual(['a', 'b', 'c']);
    expect(site.peakHeld.value).toBe(2);
    expect(pool.stats()).toMatchObject({ pagesInUse: 0, waiting: 0 });
  });

  it('closes the context after every attempt, also after a failed one', async () => {
    pool = newPool();
    const signal = new AbortController().signal;
    await pool
      .forAttempt({ exit: DIRECT, country: 'US', signal })
      .render(`${site.url}/dynamic`, { waitFor: '#answer p', timeoutMs: 15_000 });
    expect(pool.stats().openContexts).toBe(0);
    const failure = await asyncFailureOf(() =>
      pool!.forAttempt({ exit: DIRECT, country: 'US', signal }).render(`${site.url}/never`, { timeoutMs: 1500 }),
    );
    expect(failure.kind).toBe('TIMEOUT');
    expect(pool.stats()).toMatchObject({ openContexts: 0, pagesInUse: 0, connected: true });
  });

  it('an aborted attempt closes its page at once and gives the slot back', async () => {
    pool = newPool(1);
    const attempt = new AbortController();
    const render = pool
      .forAttempt({ exit: DIRECT, country: 'US', signal: attempt.signal })
      .render(`${site.url}/hold?id=abort`, { timeoutMs: 20_000 });
    const settled = render.catch((e: unknown) => e);
    await eventually(() => site.held.has('abort'), 'request held');
    attempt.abort(new Error('attempt timed out'));
    const e = await settled;
    expect(e).toBeInstanceOf(UpstreamFailure);
    expect((e as UpstreamFailure).kind).toBe('TIMEOUT');
    await eventually(() => site.abandoned.has('abort'), 'the browser dropped the held request');
    expect(pool.stats()).toMatchObject({ openContexts: 0, pagesInUse: 0 });
    // The one slot is free again.
    const next = await pool
      .forAttempt({ exit: DIRECT, country: 'US', signal: new AbortController().signal })
      .render(`${site.url}/static`, { timeoutMs: 15_000 });
    expect(next.status).toBe(200);
  });

  it('an attempt that ends while its page is open (close()) closes the page', async () => {
    pool = newPool();
    const browser = pool.forAttempt({ exit: DIRECT, country: 'US', signal: new AbortController().signal });
    const settled = browser.render(`${site.url}/hold?id=ended`, { timeoutMs: 20_000 }).catch((e: unknown) => e);
    await eventually(() => site.held.has('ended'), 'request held');
    browser.close();
    expect(await settled).toBeInstanceOf(UpstreamFailure);
    await eventually(() => pool!.stats().openContexts === 0, 'context closed');
  });

  it('waiting for a page slot respects the attempt signal', async () => {
    pool = newPool(1);
    const first = pool
      .forAttempt({ exit: DIRECT, country: 'US', signal: new AbortController().signal })
      .render(`${site.url}/hold?id=slot`, { timeoutMs: 20_000 });
    await eventually(() => site.held.has('slot'), 'first page open');
    const staticHits = site.hits.get('/static') ?? 0;
    const waiting = new AbortController();
    const second = pool
      .forAttempt({ exit: DIRECT, country: 'US', signal: waiting.signal })
      .render(`${site.url}/static`, { timeoutMs: 20_000 })
      .catch((e: unknown) => e);
    await eventually(() => pool!.stats().waiting === 1, 'second attempt queued');
    waiting.abort();
    const e = await second;
    expect((e as UpstreamFailure).kind).toBe('TIMEOUT');
    expect(pool.stats().waiting).toBe(0);
    expect(site.hits.get('/static') ?? 0).toBe(staticHits);
    site.held.get('slot')?.release();
    expect((await first).status).toBe(200);
  });

  it('relaunches Chromium after it was killed', async () => {
    pool = newPool();
    const signal = new AbortController().signal;
    await pool.forAttempt({ exit: DIRECT, country: 'US', signal }).render(`${site.url}/static`, { timeoutMs: 15_000 });
    const pid = await pool.browserPid();
    expect(pid).toEqual(expect.any(Number));
    process.kill(pid as number, 'SIGKILL');
    await eventually(() => !pool!.stats().connected, 'browser seen as disconnected');
    const page = await pool
      .forAttempt({ exit: DIRECT, country: 'US', signal })
      .render(`${site.url}/dynamic`, { waitFor: '#answer p', timeoutMs: 15_000 });
    expect(page.html).toContain('First part of the answer.');
    expect(pool.stats()).toMatchObject({ launches: 2, connected: true });
    expect(await pool.browserPid()).not.toBe(pid);
  });

  it('sends each attempt through its exit address proxy, with the proxy credentials', async () => {
    const proxy = await startAuthProxy('exit-user', 'p@ss word');
    try {
      pool = newPool();
      const signal = new AbortController().signal;
      const exit = { id: 'proxied', proxyUrl: `${proxy.url.replace('http://', 'http://exit-user:p%40ss%20word@')}` };
      const page = await pool
        .forAttempt({ exit, country: 'US', signal })
        .render(`${site.url}/static`, { timeoutMs: 15_000 });
      expect(page.html).toContain('Nothing will change here.');
      expect(proxy.relayed).toContain('/static');
      // Another attempt on the host's own connection does not touch the proxy.
      const before = proxy.relayed.length;
      await pool
        .forAttempt({ exit: DIRECT, country: 'US', signal })
        .render(`${site.url}/static`, { timeoutMs: 15_000 });
      expect(proxy.relayed.length).toBe(before);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a SOCKS5 exit with credentials before opening anything, without echoing the password', async () => {
    pool = newPool();
    const exit = { id: 'socks-exit', proxyUrl: 'socks5://user:hunter2@127.0.0.1:1080' };
    const failure = await asyncFailureOf(() =>
      pool!
        .forAttempt({ exit, country: 'US', signal: new AbortController().signal })
        .render(`${site.url}/static`, { timeoutMs: 5000 }),
    );
    expect(failure.kind).toBe('UPSTREAM_ERROR');
    expect(failure.message).toContain('socks-exit');
    expect(failure.message).not.toContain('hunter2');
    expect(pool.stats().launches).toBe(0);
  });

  it('a closed pool closes the browser and refuses new pages', async () => {
    const p = newPool();
    await p
      .forAttempt({ exit: DIRECT, country: 'US', signal: new AbortController().signal })
      .render(`${site.url}/static`, { timeoutMs: 15_000 });
    await p.close();
    expect(p.stats().connected).toBe(false);
    const failure = await asyncFailureOf(() =>
      p
        .forAttempt({ exit: DIRECT, country: 'US', signal: new AbortController().signal })
        .render(`${site.url}/static`, { timeoutMs: 5000 }),
    );
    expect(failure.kind).toBe('UPSTREAM_ERROR');
  });
});
