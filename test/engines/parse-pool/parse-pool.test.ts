import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsError, loadSettings } from '../../../src/config/settings.js';
import { UpstreamFailure } from '../../../src/domain/engine-errors.js';
import { PARSERS as SERVICE_PARSERS, type RawWebPage } from '../../../src/engines/parse-pool/parsers.js';
import { ParsePool } from '../../../src/engines/parse-pool/pool.js';
import type { PARSERS as TEST_PARSERS } from './test-parsers.js';

type TestTable = typeof TEST_PARSERS;
const TEST_TABLE = new URL('./test-parsers.ts', import.meta.url);

const pools: Array<{ close(): Promise<void> }> = [];
function testPool(threads: number, maxHeapMb?: number): ParsePool<TestTable> {
  const pool = new ParsePool<TestTable>({ threads, parsersUrl: TEST_TABLE, ...(maxHeapMb ? { maxHeapMb } : {}) });
  pools.push(pool);
  return pool;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** A flag that `test.spin` raises once it runs; resolves with the spinning thread's id. */
function spinFlag(): { flag: Int32Array; started: Promise<number> } {
  const flag = new Int32Array(new SharedArrayBuffer(12));
  // Atomics.waitAsync is in Node 20, not in the ES2023 lib the project compiles against.
  const { waitAsync } = Atomics as unknown as {
    waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: string | Promise<string> };
  };
  const wait = waitAsync(flag, 0, 0);
  const started = Promise.resolve(wait.value).then(() => Atomics.load(flag, 1));
  return { flag, started };
}

async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('parse pool', () => {
  it.runIf(process.platform === 'linux')(
    'runs its threads at the nice value asked (AEQ_PARSE_NICE), 19 by default',
    async () => {
      const lowest = testPool(1);
      expect(await lowest.run('test.nice', null)).toBe(19);
      const ten = new ParsePool<TestTable>({ threads: 1, parsersUrl: TEST_TABLE, nice: 10 });
      pools.push(ten);
      expect(await ten.run('test.nice', null)).toBe(10);
      expect(loadSettings({ AEQ_PARSE_NICE: '10' }).parseNice).toBe(10);
      expect(loadSettings({}).parseNice).toBe(19);
      expect(() => loadSettings({ AEQ_PARSE_NICE: '20' })).toThrow(SettingsError);
    },
  );

  it('runs a parse in a worker thread, with bytes and text crossing intact', async () => {
    const pool = testPool(1);
    const r = await pool.run('test.echo', { text: 'ok', bytes: Buffer.from('12345') });
    expect(r).toMatchObject({ text: 'OK', length: 5 });
    expect(r.threadId).toBeGreaterThan(0);
  });

  it("gives a service parser's result unchanged: WEB_SCRAPE on a gzipped page, as inline", async () => {
    const html = fs.readFileSync(new URL('../../fixtures/web/article.html', import.meta.url));
    const page: RawWebPage = {
      requestedUrl: 'https://outdoors.example.com/guides/trail-shoes',
      finalUrl: 'https://outdoors.example.com/guides/trail-shoes',
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' },
      body: zlib.gzipSync(html),
    };
    const pooled = new ParsePool({ threads: 1 });
    pools.push(pooled);
    const inWorker = await pooled.run('web.page', page);
    expect(inWorker).toEqual(SERVICE_PARSERS['web.page'](page));
    expect(inWorker.markdown.startsWith('# Choosing a Trail Running Shoe\n')).toBe(true);
  });

  it(
    'rethrows an UpstreamFailure of the worker as an UpstreamFailure, ' +
      'with its kind, client message and retry hint',
    async () => {
      const pool = testPool(1);
      const limited = await rejectionOf(pool.run('test.rateLimited', null));
      expect(limited).toBeInstanceOf(UpstreamFailure);
      expect(limited).toMatchObject({ kind: 'RATE_LIMITED', message: 'upstream said slow down', retryAfterMs: 30_000 });
      const gone = await rejectionOf(pool.run('test.unavailable', null));
      expect(gone).toBeInstanceOf(UpstreamFailure);
      expect(gone).toMatchObject({
        kind: 'PAGE_UNAVAILABLE',
        clientMessage: 'The post was deleted; pass the URL of an existing post.',
      });
    },
  );

  it("rethrows any other error as an Error with the worker's name, message and stack", async () => {
    const pool = testPool(1);
    const bug = await rejectionOf(pool.run('test.bug', { value: {} }));
    expect(bug).toBeInstanceOf(Error);
    expect(bug).not.toBeInstanceOf(UpstreamFailure);
    expect((bug as Error).name).toBe('TypeError');
    expect((bug as Error).message).toMatch(/undefined/);
    expect((bug as Error).stack).toContain('test-parsers.ts');
  });

  it(
    'stops a parse that runs too long when its signal fires: ' +
      'the rejection is the reason, and its thread is terminated',
    async () => {
      const pool = testPool(1);
      const { flag, started } = spinFlag();
      const attempt = new AbortController();
      const parse = pool.run('test.spin', flag, attempt.signal);
      const spinningThread = await started;
      const reason = new Error('attempt timed out');
      attempt.abort(reason);
      expect(await rejectionOf(parse)).toBe(reason);
      // One thread at most: the next parse can run only if the spinning thread is gone.
      const next = await pool.run('test.threadId', null);
      expect(next).not.toBe(spinningThread);
    },
  );

  it('drops a queued parse when its signal fires before a thread takes it', async () => {
    const pool = testPool(1);
    const { flag, started } = spinFlag();
    const busy = new AbortController();
    const first = pool.run('test.spin', flag, busy.signal);
    await started;
    const queued = new AbortController();
    const second = pool.run('test.echo', { text: 'late', bytes: new Uint8Array(0) }, queued.signal);
    queued.abort(new Error('gave up'));
    expect(await rejectionOf(second)).toMatchObject({ message: 'gave up' });
    busy.abort(new Error('done'));
    await rejectionOf(first);
  });

  it(
    'fails the parse of a thread that runs out of memory (a typed ' +
      'CONTENT_UNREADABLE) or exits, and goes on with a new thread',
    async () => {
      const pool = testPool(1, 64);
      const oom = await rejectionOf(pool.run('test.hog', null));
      expect(oom).toBeInstanceOf(UpstreamFailure);
      expect(oom).toMatchObject({ kind: 'CONTENT_UNREADABLE', message: expect.stringContaining('64 MB heap') });
      const exited = await rejectionOf(pool.run('test.exit', null));
      expect(exited).toBeInstanceOf(Error);
      expect(exited).not.toBeInstanceOf(UpstreamFailure);
      expect(await pool.run('test.echo', { text: 'after', bytes: new Uint8Array(1) })).toMatchObject({ text: 'AFTER' });
    },
  );

  it('refuses a parse whose signal has already fired', async () => {
    const pool = testPool(1);
    const reason = new Error('too late');
    expect(await rejectionOf(pool.run('test.threadId', null, AbortSignal.abort(reason)))).toBe(reason);
    expect(pool.liveThreads()).toBe(0);
  });

  it('parses inline with no threads (AEQ_PARSE_THREADS=0), failures alike', async () => {
    const pool = testPool(0);
    expect(await pool.run('test.echo', { text: 'inline', bytes: new Uint8Array(3) })).toMatchObject({
      text: 'INLINE',
      length: 3,
      threadId: 0,
    });
    expect(await rejectionOf(pool.run('test.rateLimited', null))).toMatchObject({
      kind: 'RATE_LIMITED',
      retryAfterMs: 30_000,
    });
    expect(pool.liveThreads()).toBe(0);
  });

  it('starts no thread before the first parse, and none after close', async () => {
    const pool = testPool(2);
    expect(pool.liveThreads()).toBe(0);
    await pool.run('test.threadId', null);
    expect(pool.liveThreads()).toBeGreaterThan(0);
    await pool.close();
    expect(pool.liveThreads()).toBe(0);
    await expect(pool.run('test.threadId', null)).rejects.toThrow(/closed/);
  });
});

describe('AEQ_PARSE_THREADS', () => {
  it('defaults to one thread per core, accepts 0 (inline) and refuses what is not a count', () => {
    expect(loadSettings({}).parseThreads).toBe(os.availableParallelism());
    expect(loadSettings({ AEQ_PARSE_THREADS: '0' }).parseThreads).toBe(0);
    expect(loadSettings({ AEQ_PARSE_THREADS: '3' }).parseThreads).toBe(3);
    expect(() => loadSettings({ AEQ_PARSE_THREADS: '-1' })).toThrow(SettingsError);
    expect(() => loadSettings({ AEQ_PARSE_THREADS: 'many' })).toThrow(SettingsError);
  });
});

describe('AEQ_PARSE_HEAP_MB', () => {
  it('runs a bounded thread with its old generation at the bound and a nursery within half of it', async () => {
    // The nursery (128 MB at the default bound) is what keeps a page's short-lived DOM from being promoted and
    // collected again; docs/benchmarks.md, "Page read", has the rates with and without it.
    expect(await testPool(1, 320).run('test.resourceLimits', null)).toMatchObject({
      maxOldGenerationSizeMb: 320,
      maxYoungGenerationSizeMb: 128,
    });
    expect(await testPool(1, 64).run('test.resourceLimits', null)).toMatchObject({
      maxOldGenerationSizeMb: 64,
      maxYoungGenerationSizeMb: 32,
    });
  });

  it('bounds each thread by default, accepts 0 (V8 default) or a size of at least 64 MB, and refuses the rest', () => {
    expect(loadSettings({}).parseHeapMb).toBe(320);
    expect(loadSettings({ AEQ_PARSE_HEAP_MB: '0' }).parseHeapMb).toBe(0);
    expect(loadSettings({ AEQ_PARSE_HEAP_MB: '512' }).parseHeapMb).toBe(512);
    expect(() => loadSettings({ AEQ_PARSE_HEAP_MB: '32' })).toThrow(/at least 64/);
    expect(() => loadSettings({ AEQ_PARSE_HEAP_MB: 'lots' })).toThrow(SettingsError);
  });
});
