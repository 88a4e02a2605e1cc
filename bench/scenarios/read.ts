import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSettings } from '../../src/config/settings.js';
import { resourceLimits } from '../../src/engines/parse-pool/pool.js';
import { figure, type BenchConfig, type Figure, type Integrity, type ScenarioResult } from '../figures.js';
import { median, round } from '../stats.js';
import { corpusPages, type ChildMessage, type ParentMessage } from './read-corpus.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENTRY = path.join(ROOT, 'bench', 'scenarios', 'read-process.ts');
const SCENARIO = 'page read (web corpus)';
/** aeq reads at least this share of what the bare pipeline reads on every core (the target). */
const TARGET_RATIO = 0.8;

type Side = 'bare' | 'aeq';

interface SideRun {
  pagesPerS: number;
  pages: number;
  failed: number;
  maxRssMb: number;
  maxHeapMb: number;
  errors: string[];
}

/**
 * Pages per second of WEB_SCRAPE's page read against the pipeline it is built on, on the real web corpus
 * (test/fixtures/real/web: every page, each read once per run), in interleaved rounds:
 * - bare: one process per core (`os.availableParallelism()`), each jsdom + Readability + Turndown on one page at a
 *   time (bench/scenarios/read-process.ts), the pages handed out as the processes finish them;
 * - aeq: one process holding a parse pool with the service's settings (one thread per core, each thread's heap
 *   bounded by `AEQ_PARSE_HEAP_MB`), reading every page as WEB_SCRAPE does (`web.page`: decompress, decode, block
 *   and wall checks, extraction, Markdown, text, images).
 * Both start from the same gzipped bytes, after a warm-up, at the same priority (nice 19). pages/s is pages over the
 * time from `go` to the last page's answer; memory is the aeq process's peak VmRSS (every 100 ms).
 */
export async function runReadScenario(config: BenchConfig, log: (s: string) => void): Promise<ScenarioResult> {
  const corpusSize = corpusPages().length;
  // A subset is spread evenly over the corpus, whose sources follow one another in it.
  const wanted = config.readPages > 0 ? Math.min(config.readPages, corpusSize) : corpusSize;
  const chosen = Array.from({ length: wanted }, (_, i) => Math.floor((i * corpusSize) / wanted));
  const pageCount = chosen.length;
  const cores = os.availableParallelism();
  const settings = loadSettings({});
  const runs: Record<Side, SideRun[]> = { bare: [], aeq: [] };
  for (let r = 0; r < config.rounds; r++) {
    // Alternate which side goes first, so that a drift of the machine's load is spread over both.
    const order: Side[] = r % 2 === 0 ? ['bare', 'aeq'] : ['aeq', 'bare'];
    for (const side of order) {
      const run = await readAll(side, side === 'bare' ? cores : 1, chosen);
      runs[side].push(run);
      log(
        `read round ${r + 1} ${side}: ${round(run.pagesPerS, 2)} pages/s, ${run.failed} failed, ` +
          `max RSS ${Math.round(run.maxRssMb)} MB (load ${os
            .loadavg()
            .map((l) => round(l, 1))
            .join(' ')})`,
      );
      for (const e of run.errors.slice(0, 3)) log(`  ${side} failure: ${e}`);
    }
  }
  const bare = runs.bare.map((x) => x.pagesPerS);
  const aeq = runs.aeq.map((x) => x.pagesPerS);
  const figures: Figure[] = [
    figure({
      scenario: `${SCENARIO}, ${pageCount} pages`,
      metric:
        `pages/s, aeq's WEB_SCRAPE read through the parse pool (${settings.parseThreads} threads, ` +
        `${heapOfEachThread(settings.parseHeapMb)} each)`,
      unit: 'pages/s',
      runs: aeq,
      baseline: { name: `bare jsdom + Readability + Turndown, ${cores} processes`, value: median(bare) },
      target: { op: 'ratio>=', value: TARGET_RATIO },
    }),
    figure({
      scenario: `${SCENARIO}, ${pageCount} pages`,
      metric: 'pages/s, bare pipeline, one process per core',
      unit: 'pages/s',
      runs: bare,
    }),
    figure({
      scenario: `${SCENARIO}, ${pageCount} pages`,
      metric: "max VmRSS of aeq's process (parse pool included), read every 100 ms",
      unit: 'MB',
      runs: runs.aeq.map((x) => x.maxRssMb),
    }),
    figure({
      scenario: `${SCENARIO}, ${pageCount} pages`,
      metric: 'max VmRSS of one bare process',
      unit: 'MB',
      runs: runs.bare.map((x) => x.maxRssMb),
    }),
  ];
  const integrity: Integrity[] = (['aeq', 'bare'] as const).flatMap((side) =>
    runs[side].map((x, i) => ({
      scenario: `${SCENARIO}, ${side} run ${i + 1} (pages read; failures)`,
      expected: pageCount,
      observed: x.pages - x.failed,
      failedRequests: x.failed,
      lost: pageCount - x.pages,
      duplicates: 0,
    })),
  );
  return { figures, integrity };
}

/** One run of one side: `processes` readers, every page handed out once, timed from `go` to the last answer. */
async function readAll(side: Side, processes: number, chosen: readonly number[]): Promise<SideRun> {
  const pageCount = chosen.length;
  const children = await Promise.all(Array.from({ length: processes }, () => startReader(side)));
  let next = 0;
  let answered = 0;
  let failed = 0;
  const errors: string[] = [];
  let t1 = 0;
  const finished: Array<Extract<ChildMessage, { type: 'finished' }>> = [];
  const t0 = performance.now();
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve, reject) => {
          c.proc.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${side} reader ended: ${code}`))));
          c.proc.on('message', (m: ChildMessage) => {
            const say = (p: ParentMessage) => c.proc.send(p);
            if (m.type === 'next') say(next < pageCount ? { type: 'page', index: chosen[next++]! } : { type: 'end' });
            else if (m.type === 'done') {
              answered++;
              if (!m.ok) {
                failed++;
                errors.push(`page ${m.index}: ${m.error ?? ''}`);
              }
              if (answered === pageCount) t1 = performance.now();
            } else if (m.type === 'finished') finished.push(m);
          });
          c.proc.send({ type: 'go' } satisfies ParentMessage);
        }),
    ),
  );
  return {
    pagesPerS: answered / (((t1 || performance.now()) - t0) / 1000),
    pages: answered,
    failed,
    maxRssMb: Math.max(...finished.map((f) => f.maxRssMb)),
    maxHeapMb: Math.max(...finished.map((f) => f.maxHeapMb)),
    errors,
  };
}

interface Reader {
  proc: ChildProcess;
}

/** Starts one reader process and waits for its `ready` (corpus loaded, warm). */
function startReader(side: Side): Promise<Reader> {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith('AEQ_') || k === 'NODE_OPTIONS') delete base[k];
  const proc = spawn(process.execPath, ['--import', 'tsx', ENTRY, side], {
    cwd: ROOT,
    env: base,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${side} reader ended before ready: ${code}`)));
    proc.once('message', (m: ChildMessage) => {
      if (m.type === 'ready') resolve({ proc });
      else reject(new Error(`${side} reader: unexpected ${m.type}`));
    });
  });
}

/** A parse thread's heap as the pool bounds it, for the figure's label. */
function heapOfEachThread(heapMb: number): string {
  if (!heapMb) return "V8's default heap";
  const limits = resourceLimits(heapMb);
  return `${limits.maxOldGenerationSizeMb} MB old generation and ${limits.maxYoungGenerationSizeMb} MB nursery`;
}
