import type { Logger } from 'pino';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { Piscina } from 'piscina';
import { addedParserTables, loadAddedTables } from './added-tables.js';
import type { Parse, ParserInput, ParserOutput, Parsers } from './parsers.js';
import { fromWireError, type ParseReply, type ParseTask } from './wire.js';
import type { ParseWorkerData } from './worker.js';

export interface ParsePoolOptions {
  /** Worker threads; 0 parses inline, on the event loop (`AEQ_PARSE_THREADS=0`). */
  threads: number;
  /**
   * How long an idle thread lives before it exits and frees its memory (each holds its own jsdom, cheerio,
   * turndown).
   */
  idleTimeoutMs?: number;
  /**
   * Old-generation heap limit of each thread, in MB (`AEQ_PARSE_HEAP_MB`), set with a nursery beside it
   * (`resourceLimits` below); unset, V8's defaults for both. A parse that needs more ends its thread
   * and fails as CONTENT_UNREADABLE (the page is too large to read), not as our bug.
   */
  maxHeapMb?: number;
  /** The threads' nice value on Linux (`AEQ_PARSE_NICE`, default 19). */
  nice?: number;
  /** Where a thread that dies (out of memory, a native fault) is reported. */
  log?: Logger;
  /** A module exporting another `PARSERS` table (file URL); tests only. */
  parsersUrl?: URL;
}

/**
 * A bounded thread's young generation, in MB (at most half its old-generation bound). Node leaves V8's default for
 * the machine's memory (48 MB on a 24 GB machine) beside an old-generation bound, and V8 grows a heap whose bound is
 * under 2 GB by a smaller factor after each full collection: a page's DOM, which mostly dies within the page, was
 * promoted and collected again and again, and the pool read the web corpus at about 80% of its rate unbounded. A
 * larger nursery lets that garbage die young (docs/benchmarks.md, "Page read"); it counts within the thread's
 * memory, which stays bounded.
 */
const BOUNDED_YOUNG_GENERATION_MB = 128;

/** An idle thread keeps its loaded libraries for this long, so steady traffic never pays their load again. */
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/**
 * Runs the CPU-heavy part of an attempt (registered in `parsers.ts`) in a pool of worker threads,
 * so that DOM parsing, Readability and Markdown conversion never hold the event loop that serves
 * the HTTP API, the claim loop and every other attempt. The threads start on the first parse (an
 * API-only process never starts any) and leave when idle.
 *
 * Each parse carries the attempt's AbortSignal: a parse still queued is dropped, and a running one
 * ends with its thread, which piscina terminates (and replaces) when the signal fires, so a
 * timed-out attempt stops using the CPU. The rejection is the signal's reason, as for any other
 * aborted call of the attempt.
 */
export class ParsePool<T extends object = Parsers> {
  private pool: Piscina | null = null;
  private starting: Promise<Piscina> | null = null;
  private inlineTable: Promise<T> | null = null;
  private closed = false;

  constructor(private readonly opts: ParsePoolOptions) {}

  get threads(): number {
    return this.opts.threads;
  }

  async run<N extends keyof T & string>(
    name: N,
    input: ParserInput<T, N>,
    signal?: AbortSignal,
  ): Promise<ParserOutput<T, N>> {
    signal?.throwIfAborted();
    if (this.closed) throw new Error('the parse pool is closed');
    if (this.opts.threads === 0) return this.runInline(name, input);
    const pool = await this.piscina();
    const task: ParseTask = { name, input };
    let reply: ParseReply<ParserOutput<T, N>>;
    try {
      reply = (await pool.run(task, signal ? { signal } : {})) as ParseReply<ParserOutput<T, N>>;
    } catch (e) {
      // piscina's AbortError says only "aborted": the signal's reason says why (timeout, drain).
      if (signal?.aborted) throw signal.reason;
      if (isOutOfMemory(e)) {
        throw new UpstreamFailure(
          'CONTENT_UNREADABLE',
          `${name}: the answer needs more memory than a parse thread ` +
            `may use (${this.opts.maxHeapMb ?? 'default'} MB heap)`,
        );
      }
      throw e;
    }
    if (!reply.ok) throw fromWireError(reply.error);
    return reply.value;
  }

  /** The `parse` of one attempt: every call carries the attempt's signal. */
  bind(signal: AbortSignal): Parse {
    const self = this as unknown as ParsePool;
    return (name, input) => self.run(name, input, signal);
  }

  /** Live worker threads (0 before the first parse and after idle ones left). */
  liveThreads(): number {
    return this.pool?.threads.length ?? 0;
  }

  /** Stops every thread; parses still running or queued are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool ?? (this.starting ? await this.starting : null);
    this.pool = null;
    if (pool) await pool.destroy();
  }

  private async runInline<N extends keyof T & string>(name: N, input: ParserInput<T, N>): Promise<ParserOutput<T, N>> {
    this.inlineTable ??= loadTable<T>(this.opts.parsersUrl);
    const table = (await this.inlineTable) as Record<string, ((input: never) => unknown) | undefined>;
    const parse = table[name];
    if (!parse) throw new Error(`no parser named ${name}`);
    return (await parse(input as never)) as ParserOutput<T, N>;
  }

  private piscina(): Promise<Piscina> {
    if (this.pool) return Promise.resolve(this.pool);
    this.starting ??= (async () => {
      // piscina itself loads only in a process that parses.
      const { Piscina } = await import('piscina');
      const workerData: ParseWorkerData = {
        ...(this.opts.parsersUrl ? { parsers: this.opts.parsersUrl.href } : {}),
        nice: this.opts.nice ?? 19,
        added: addedParserTables(),
      };
      this.pool = new Piscina({
        filename: workerEntry().href,
        minThreads: 0,
        maxThreads: this.opts.threads,
        idleTimeout: this.opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
        // Tasks arrive as messages, so the thread's event loop turns between them: jsdom releases a
        // page's window only from a timer it queued, and with piscina's default (a thread waiting in
        // Atomics.wait takes the next task at once) a busy thread kept every page it had read.
        atomics: 'disabled',
        workerData,
        ...(this.opts.maxHeapMb ? { resourceLimits: resourceLimits(this.opts.maxHeapMb) } : {}),
      });
      // A thread that dies fails its parse (run() rejects) and is replaced; unheard, piscina's
      // 'error' event would end the whole process.
      this.pool.on('error', (e: unknown) => this.opts.log?.error({ err: e }, 'parse thread failed'));
      return this.pool;
    })();
    return this.starting;
  }
}

/** A bounded thread's heap: the old generation as configured, and a nursery that fits within half of it. */
export function resourceLimits(maxHeapMb: number): {
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
} {
  return {
    maxOldGenerationSizeMb: maxHeapMb,
    maxYoungGenerationSizeMb: Math.min(BOUNDED_YOUNG_GENERATION_MB, Math.floor(maxHeapMb / 2)),
  };
}

/** A thread ended by its heap limit: the input was too large for it, which no retry changes. */
function isOutOfMemory(e: unknown): boolean {
  return e instanceof Error && (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
}

async function loadTable<T>(url: URL | undefined): Promise<T> {
  const mod = (url ? await import(url.href) : await import('./parsers.js')) as { PARSERS: T };
  const added = (await loadAddedTables()).map((t) => t.PARSERS);
  return Object.assign({}, mod.PARSERS, ...added) as T;
}

/**
 * The worker's module: the compiled `worker.js` beside this file in dist/, or, when this file is
 * the TypeScript source (vitest, tsx), a small loader that registers tsx in the worker first.
 */
function workerEntry(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './worker-tsx.mjs' : './worker.js', import.meta.url);
}

/** Parsing on the event loop, for attempt contexts built outside the runner (tests, tools). */
export function inlineParse(signal: AbortSignal = new AbortController().signal): Parse {
  return new ParsePool({ threads: 0 }).bind(signal);
}
