import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import type TurndownService from 'turndown';
import { TURNDOWN_OPTIONS } from '../../src/engines/web/page-markdown.js';
import { loadSettings } from '../../src/config/settings.js';
import { ParsePool } from '../../src/engines/parse-pool/pool.js';
import { jsdom, readability, turndown, turndownGfm } from '../../src/engines/lazy-modules.js';
import { decodeBody } from '../../src/net/charset.js';
import { asBuffer } from '../../src/engines/parse-pool/bytes.js';
import { corpusPages, type ChildMessage, type ParentMessage } from './read-corpus.js';

/**
 * One reader of the page-read scenario (bench/scenarios/read.ts), started by it as
 * `node --import tsx bench/scenarios/read-process.ts bare|aeq` with an IPC channel. It loads the corpus, reads a few
 * pages to warm up, says `ready`, and on `go` asks the bench for pages one by one (`next`), so that the pages are
 * spread over the readers as they finish them; `end` answers a `next` once every page is handed out.
 *
 * - `bare`: the pipeline aeq is built on, as a user writes it, in one thread: jsdom with the page URL, Readability
 *   with aeq's options, Turndown with aeq's options and the GFM plugin; one page at a time. The process runs at
 *   nice 19, the priority of aeq's parse threads, so that both sides get the same share of a shared machine.
 * - `aeq`: WEB_SCRAPE's read of a fetched page, `ctx.parse('web.page', page)` (src/engines/web/web-scrape.ts),
 *   through a parse pool with the service's settings (`AEQ_PARSE_THREADS`: one thread per core;
 *   `AEQ_PARSE_HEAP_MB`: 320 MB per thread), with two pages per thread in flight so that no thread waits for the
 *   bench's messages.
 */
const mode = process.argv[2];
if (mode !== 'bare' && mode !== 'aeq') throw new Error(`read-process: mode bare|aeq, got ${mode}`);
const send = (m: ChildMessage) => process.send?.(m);
const pages = corpusPages();
/** Pages read before `ready`, untimed: libraries loaded, code warm, the pool's threads started. */
const WARMUP_PAGES = 4;

type Reader = (index: number) => Promise<void>;

function bareReader(): Reader {
  os.setPriority(19);
  const { JSDOM, VirtualConsole } = jsdom();
  const { Readability } = readability();
  const td: TurndownService = new (turndown())(TURNDOWN_OPTIONS);
  td.use(turndownGfm().gfm);
  return async (index) => {
    const page = pages[index]!;
    const body = zlib.gunzipSync(asBuffer(page.body));
    const html = decodeBody(page.headers['content-type'], body);
    const dom = new JSDOM(html, { url: page.finalUrl, virtualConsole: new VirtualConsole() });
    try {
      const article = new Readability(dom.window.document, { charThreshold: 500, keepClasses: true }).parse();
      if (article?.content) td.turndown(article.content);
    } finally {
      dom.window.close();
    }
  };
}

function aeqReader(pool: ParsePool): Reader {
  return async (index) => {
    await pool.run('web.page', pages[index]!);
  };
}

const settings = loadSettings({});
const pool = mode === 'aeq' ? new ParsePool({ threads: settings.parseThreads, maxHeapMb: settings.parseHeapMb }) : null;
const read = pool ? aeqReader(pool) : bareReader();
const inFlight = pool ? 2 * settings.parseThreads : 1;

// Warm-up: in the pool, every thread reads (one per thread at once, twice).
for (let round = 0; round < WARMUP_PAGES / (pool ? settings.parseThreads : 1); round++)
  await Promise.all(Array.from({ length: pool ? settings.parseThreads : 1 }, (_, k) => read(k).catch(() => undefined)));

let maxRss = 0;
let maxHeap = 0;
const sample = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  if (m) maxRss = Math.max(maxRss, Number(m[1]) / 1024);
  maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed / 1024 ** 2);
};

let t0 = 0;
let done = 0;
let failed = 0;
let ended = 0;
let sampler: NodeJS.Timeout | undefined;
process.on('message', (m: ParentMessage) => {
  if (m.type === 'go') {
    t0 = performance.now();
    sampler = setInterval(sample, 100);
    for (let k = 0; k < inFlight; k++) send({ type: 'next' });
  } else if (m.type === 'page') {
    read(m.index).then(
      () => {
        done++;
        send({ type: 'done', index: m.index, ok: true });
        send({ type: 'next' });
      },
      (e: unknown) => {
        done++;
        failed++;
        send({ type: 'done', index: m.index, ok: false, error: e instanceof Error ? e.message : String(e) });
        send({ type: 'next' });
      },
    );
  } else if (++ended === inFlight) {
    clearInterval(sampler);
    sample();
    const seconds = (performance.now() - t0) / 1000;
    send({ type: 'finished', seconds, pages: done, failed, maxRssMb: maxRss, maxHeapMb: maxHeap });
    void (pool?.close() ?? Promise.resolve()).then(() => process.exit(0));
  }
});
sample();
send({ type: 'ready' });
