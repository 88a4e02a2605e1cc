import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ALL_TASK_TYPES } from '../../src/domain/engine-catalog.js';
import { figure, type BenchConfig, type Figure, type Integrity, type ScenarioResult } from '../figures.js';
import { median, percentile } from '../stats.js';
import { AUTH, BENCH_KEY, call } from '../service.js';
import {
  buildService,
  rssSampler,
  serviceCommand,
  startServiceProcess,
  type ServiceProcess,
} from './growth-service.js';

/** A GET /health and a poll are sent every this many ms, whether or not the previous ones have answered. */
const PROBE_EVERY_MS = 20;
const RSS_EVERY_MS = 200;
/** The scenario's name in the figures: the page reads in flight are WEB_SCRAPE's concurrency. */
const parseScenarioName = (cfg: BenchConfig) => `parse isolation (1 MB pages, ${cfg.parseInFlight} reads in flight)`;

/**
 * pool: the service's defaults; unbounded: the pool without its per-thread heap bound (AEQ_PARSE_HEAP_MB=0); inline:
 * on the event loop.
 */
type Mode = 'pool' | 'unbounded' | 'inline';
const MODE_NAMES: Record<Mode, string> = {
  pool: `parse pool (defaults: ${os.availableParallelism()} threads, heap bound of each)`,
  unbounded: 'parse pool, heap unbounded (AEQ_PARSE_HEAP_MB=0)',
  inline: 'inline parsing (AEQ_PARSE_THREADS=0)',
};

interface ModeRun {
  idleMs: number[];
  loadedMs: number[];
  pagesPerS: number;
  maxRssMb: number;
  finished: number;
  completed: number;
  failedProbes: number;
}

/** Run order within a round: the baseline first, as before. */
const MODES: readonly Mode[] = ['inline', 'unbounded', 'pool'];

/**
 * The page site (`page-site.ts`) in a child process: every path answers the same 1 MB article page; counts the
 * reads.
 */
async function startPageServer(): Promise<{ url: string; reads(): Promise<number>; close(): Promise<void> }> {
  const child = fork(fileURLToPath(new URL('./page-site.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`page site exited at start (${code})`)));
  });
  return {
    url,
    reads: () =>
      new Promise<number>((resolve) => {
        child.once('message', (m) => resolve((m as { reads: number }).reads));
        child.send('reads');
      }),
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.disconnect();
      await exited;
    },
  };
}

/** The service's environment: WEB_SCRAPE alone, `inFlight` at a time, one attempt; the pool sized by default or off. */
function parseEnv(dataDir: string, mode: Mode, inFlight: number): Record<string, string> {
  const engines: Record<string, unknown> = {};
  for (const t of ALL_TASK_TYPES) engines[t] = { paused: true };
  engines.WEB_SCRAPE = { paused: false, mode: 'anon', concurrency: inFlight, timeoutMs: 300_000, maxAttempts: 1 };
  const configPath = path.join(dataDir, 'config.json');
  fs.writeFileSync(
    configPath,
    JSON.stringify({
      // A lease far past any stall of the loop: inline parsing is measured by how long it holds the loop, and a
      // loaded machine must not turn a long hold into a lost lease.
      scheduler: { pollMs: 250, leaseMs: 600_000, heartbeatMs: 10_000 },
      engines,
      exitAddresses: [{ id: 'bench-direct', country: 'US', maxConcurrent: 100_000 }],
    }),
  );
  return {
    AEQ_API_KEY: BENCH_KEY,
    AEQ_DATA_DIR: dataDir,
    AEQ_CONFIG: configPath,
    AEQ_LOG_LEVEL: 'warn',
    // The page server listens on loopback.
    AEQ_READER_ALLOW_PRIVATE: '1',
    ...(mode === 'inline' ? { AEQ_PARSE_THREADS: '0' } : {}),
    ...(mode === 'unbounded' ? { AEQ_PARSE_HEAP_MB: '0' } : {}),
  };
}

/**
 * A GET /health and a poll of one task, each on its own schedule of one request every 20 ms, timed
 * from the request to its last byte. Each kind has one request in flight at a time (a blocked
 * service is not buried under a pile of probes), and a probe that outlasts its interval also counts
 * the probes it held back, each with the time from when it was due (the "coordinated omission"
 * correction): the figures are those of clients sending every 20 ms regardless. Runs until `until`
 * resolves.
 */
async function probe(url: string, taskId: string, until: Promise<unknown>): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  let stop = false;
  void until.then(() => {
    stop = true;
  });
  const lane = async (p: string, headers: Record<string, string>) => {
    let due = performance.now();
    while (!stop) {
      const t0 = performance.now();
      try {
        const res = await fetch(url + p, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
      } catch {
        failed++;
      }
      const now = performance.now();
      ms.push(now - t0);
      // The probes that were due while this one waited: each would have waited from its due time.
      for (due += PROBE_EVERY_MS; due < now; due += PROBE_EVERY_MS) ms.push(now - due);
      if (due > now) await sleep(due - now);
    }
  };
  await Promise.all([lane('/health', {}), lane(`/v1/async/task/${taskId}`, { authorization: AUTH.authorization })]);
  await until;
  return { ms, failed };
}

async function finishedCounts(url: string): Promise<{ completed: number; failed: number }> {
  const r = await call(url, 'GET', '/stats');
  if (r.status !== 200) throw new Error(`parse isolation: GET /stats answered ${r.status}`);
  const tasks = (r.body as { tasks: { COMPLETED: number; FAILED: number } }).tasks;
  return { completed: tasks.COMPLETED, failed: tasks.FAILED };
}

/** Why pages failed, by failure code and message, for the log (a failed page is an integrity loss). */
async function failureReasons(url: string): Promise<string> {
  const since = new Date(Date.now() - 3600_000).toISOString();
  const r = await call(url, 'GET', `/v1/async/tasks?since=${since}&status=FAILED&include=result&limit=20`);
  const tasks = (r.body as { tasks?: Array<{ failure?: { code?: string; message?: string } }> }).tasks ?? [];
  const reasons = new Map<string, number>();
  for (const t of tasks) {
    const why = `${t.failure?.code ?? '?'}: ${t.failure?.message ?? '?'}`;
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  return [...reasons].map(([why, n]) => `${n} × ${why}`).join('; ') || `GET /v1/async/tasks answered ${r.status}`;
}

async function waitFor(what: string, timeoutMs: number, ok: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`parse isolation: ${what} within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}

/**
 * One service process: idle probes, then `cfg.parseInFlight` page reads in flight, probes and RSS over the loaded
 * window.
 */
async function runMode(
  mode: Mode,
  cfg: BenchConfig,
  site: { url: string; reads(): Promise<number> },
  log: (s: string) => void,
): Promise<ModeRun> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `aeq-bench-parse-${mode}-`));
  let svc: ServiceProcess | null = null;
  try {
    svc = await startServiceProcess(serviceCommand(cfg.quick), parseEnv(dataDir, mode, cfg.parseInFlight));
    const url = svc.url;
    // The polled task: a SEARCH_A task, paused, so it stays QUEUED and its answer stays small.
    const queued = await call(url, 'POST', '/v1/async/task', { taskType: 'SEARCH_A', payload: { prompt: 'probe' } });
    if (queued.status !== 202) throw new Error(`parse isolation: probe submit answered ${queued.status}`);
    const taskId = (queued.body as { task: { id: string } }).task.id;
    const idle = await probe(url, taskId, sleep(cfg.parseIdleS * 1000));

    // Enough tasks that 32 stay in flight until the window ends; the rest are dropped with the service.
    const readsBefore = await site.reads();
    const batch = Array.from({ length: 500 }, (_, i) => ({
      taskType: 'WEB_SCRAPE',
      payload: { url: `${site.url}/article/${mode}/${i}` },
    }));
    const sent = await call(url, 'POST', '/v1/async/task/batch', batch);
    if (sent.status !== 200 && sent.status !== 202)
      throw new Error(`parse isolation: batch submit answered ${sent.status}`);
    await waitFor(
      `${cfg.parseInFlight} page reads under way`,
      60_000,
      async () => (await site.reads()) - readsBefore >= cfg.parseInFlight,
    );
    // Warm-up: the parsing libraries loaded (in each thread, or on the event loop) and pages finishing.
    await waitFor('first pages read', 120_000, async () => (await finishedCounts(url)).completed >= 2);

    // The window starts and ends as a page finishes: inline, pages finish in bursts (the loop
    // parses every read that has arrived before it answers anything), and a window cut anywhere
    // else would count a burst it did not wait for.
    const before = await finishedCounts(url);
    await waitFor(
      'a page read before the window',
      120_000,
      async () => (await finishedCounts(url)).completed > before.completed,
    );
    const start = await finishedCounts(url);
    const t0 = performance.now();
    const rss = rssSampler(svc.pid, RSS_EVERY_MS);
    const windowEnd = (async () => {
      await sleep(cfg.parseWindowS * 1000);
      // A window that saw no page finish would give no rate: it lasts until one has.
      await waitFor(
        'a page read in the window',
        120_000,
        async () => (await finishedCounts(url)).completed > start.completed,
      );
    })();
    const loaded = await probe(url, taskId, windowEnd);
    const seconds = (performance.now() - t0) / 1000;
    const peak = rss.stop();
    const end = await finishedCounts(url);
    const completed = end.completed - start.completed;
    const failed = end.failed - start.failed;
    if (failed > 0) log(`parse isolation (${mode}): failed pages: ${await failureReasons(url)}`);
    log(
      `parse isolation (${mode}): ${completed} pages in ${seconds.toFixed(1)} s, ` +
        `loaded p99 ${percentile(loaded.ms, 99).toFixed(1)} ms, ` +
        `max ${Math.max(...loaded.ms).toFixed(0)} ms, max RSS ${peak.maxRssMb.toFixed(0)} MB`,
    );
    return {
      idleMs: idle.ms,
      loadedMs: loaded.ms,
      pagesPerS: completed / seconds,
      maxRssMb: peak.maxRssMb,
      finished: completed + failed,
      completed,
      failedProbes: idle.failed + loaded.failed,
    };
  } finally {
    // The data dir is thrown away: no drain of the pages still in flight.
    if (svc) {
      process.kill(svc.pid, 'SIGKILL');
      await svc.stop();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Parse isolation: the service reads 1 MB pages (WEB_SCRAPE, 32 in flight; quick: 4) while a GET /health and
 * a poll are sent every 20 ms; probe latency idle and loaded, pages/s and resident memory, with the
 * parse pool at its default size (AEQ_PARSE_THREADS unset) against inline parsing on the event
 * loop (AEQ_PARSE_THREADS=0, the code path before the pool), runs interleaved.
 */
export async function runParseIsolationScenario(cfg: BenchConfig, log: (s: string) => void): Promise<ScenarioResult> {
  if (!cfg.quick) {
    log('parse isolation: building the service (npm run build), to run node dist/cli/main.js');
    await buildService();
  }
  const site = await startPageServer();
  const runs: Record<Mode, ModeRun[]> = { pool: [], unbounded: [], inline: [] };
  try {
    for (let i = 0; i < cfg.parseRuns; i++) {
      for (const mode of MODES) {
        log(`parse isolation: run ${i + 1}/${cfg.parseRuns}, ${MODE_NAMES[mode]}`);
        runs[mode].push(await runMode(mode, cfg, site, log));
      }
    }
  } finally {
    await site.close();
  }
  const inline = (f: (r: ModeRun) => number) => ({ name: MODE_NAMES.inline, value: median(runs.inline.map(f)) });
  const unbounded = (f: (r: ModeRun) => number) => ({
    name: MODE_NAMES.unbounded,
    value: median(runs.unbounded.map(f)),
  });
  const of = (f: (r: ModeRun) => number) => runs.pool.map(f);
  const p99 = (ms: number[]) => percentile(ms, 99);
  const max = (ms: number[]) => ms.reduce((a, b) => Math.max(a, b), 0);
  const probes = `GET /health + a poll every ${PROBE_EVERY_MS} ms`;
  const SCENARIO = parseScenarioName(cfg);
  const figures: Figure[] = [
    figure({
      scenario: SCENARIO,
      metric: `probe p99, idle (${probes})`,
      unit: 'ms',
      runs: of((r) => p99(r.idleMs)),
      baseline: inline((r) => p99(r.idleMs)),
    }),
    figure({
      scenario: SCENARIO,
      metric: `probe p99, loaded (${probes})`,
      unit: 'ms',
      runs: of((r) => p99(r.loadedMs)),
      baseline: inline((r) => p99(r.loadedMs)),
      target: { op: '<', value: 50, unit: 'ms' },
    }),
    figure({
      scenario: SCENARIO,
      metric: 'probe max, loaded',
      unit: 'ms',
      runs: of((r) => max(r.loadedMs)),
      baseline: inline((r) => max(r.loadedMs)),
    }),
    figure({
      scenario: SCENARIO,
      metric: 'pages/s read (submit to COMPLETED, over the loaded window)',
      unit: 'pages/s',
      runs: of((r) => r.pagesPerS),
      baseline: inline((r) => r.pagesPerS),
    }),
    figure({
      scenario: SCENARIO,
      metric: `max VmRSS of the service process over the loaded window, read every ${RSS_EVERY_MS} ms`,
      unit: 'MB',
      runs: of((r) => r.maxRssMb),
      baseline: inline((r) => r.maxRssMb),
    }),
    // What the per-thread heap bound costs and saves, against the same pool without it.
    figure({
      scenario: SCENARIO,
      metric: 'pages/s read, against the pool with its heap unbounded',
      unit: 'pages/s',
      runs: of((r) => r.pagesPerS),
      baseline: unbounded((r) => r.pagesPerS),
    }),
    figure({
      scenario: SCENARIO,
      metric: 'max VmRSS of the service process, against the pool with its heap unbounded',
      unit: 'MB',
      runs: of((r) => r.maxRssMb),
      baseline: unbounded((r) => r.maxRssMb),
    }),
  ];
  // The service's own modes must read every page of the window: a page that failed there is a loss. Inline parsing is
  // the baseline, measured for how long it holds the event loop; on a loaded machine a hold past a connect timeout
  // fails a page, which is what the baseline shows, not a loss of the service's (its failures are logged, by code).
  const integrity: Integrity[] = (['pool', 'unbounded'] as const).flatMap((mode) =>
    runs[mode].map((r, i) => ({
      scenario: `parse isolation, ${mode} run ${i + 1} (pages read in the window; probes)`,
      expected: r.finished,
      observed: r.completed,
      failedRequests: r.failedProbes,
      lost: r.finished - r.completed,
      duplicates: 0,
    })),
  );
  return { figures, integrity };
}
