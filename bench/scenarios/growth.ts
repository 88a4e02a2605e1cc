import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { figure, type BenchConfig, type Figure, type Integrity, type ScenarioResult } from '../figures.js';
import { requestsPerCpuSecond, type LoadGenerator, type LoadJob, type LoadResult } from '../load.js';
import { median, percentile } from '../stats.js';
import type { Stats } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { AUTH, call } from '../service.js';
import { IdSample, prefillRetained } from './growth-prefill.js';
import {
  buildService,
  heapSampler,
  memoryOf,
  rssSampler,
  serviceCommand,
  serviceEnv,
  startServiceProcess,
  storeOptionsOf,
  type ServiceProcess,
} from './growth-service.js';

/** The single-submit body of the api scenario (bench/scenarios/api.ts), so both measure the same request. */
const SINGLE = { taskType: 'SEARCH_A', payload: { prompt: 'best trail running shoes for wide feet', country: 'US' } };
/** The "nearly empty" store the baseline figures are measured on. */
const SMALL_STORE = 10_000;
const POLL_SAMPLE = 20_000;
const STATS_WARMUPS = 3;
const STATS_CALLS = 50;
const RSS_EVERY_MS = 200;
const HEAP_EVERY_MS = 1000;

/**
 * The same load on the small and the large store's service, interleaved run by run (small, large,
 * small, ...) after one warm-up of each, so that drift of a shared machine hits both alike.
 */
async function pairedRuns(
  load: LoadGenerator,
  cfg: BenchConfig,
  small: { job: LoadJob; pid: number },
  large: { job: LoadJob; pid: number },
): Promise<{ small: LoadResult[]; large: LoadResult[] }> {
  if (cfg.warmupS > 0) {
    await load.run({ ...small.job, durationS: cfg.warmupS }, small.pid);
    await load.run({ ...large.job, durationS: cfg.warmupS }, large.pid);
  }
  // Quick mode: 1 run instead of 3, so that this scenario (2 prefills, 2 service starts under tsx of ~2.5 s) stays
  // under 15 s.
  const runs = cfg.quick ? 1 : cfg.runs;
  const out = { small: [] as LoadResult[], large: [] as LoadResult[] };
  for (let i = 0; i < runs; i++) {
    out.small.push(await load.run(small.job, small.pid));
    out.large.push(await load.run(large.job, large.pid));
  }
  return out;
}

function pollJob(svc: ServiceProcess, cfg: BenchConfig, ids: readonly string[], pathsFile: string): LoadJob {
  // Ids drawn at random from the sample, so that reads do not walk the index in order.
  const paths = Array.from(
    { length: POLL_SAMPLE },
    () => `/v1/async/task/${ids[Math.floor(Math.random() * ids.length)]!}`,
  );
  fs.writeFileSync(pathsFile, JSON.stringify(paths));
  return {
    url: `${svc.url}/`,
    method: 'GET',
    headers: { authorization: AUTH.authorization },
    connections: cfg.connections,
    durationS: cfg.durationS,
    pathsFile,
  };
}

function submitJob(svc: ServiceProcess, cfg: BenchConfig): LoadJob {
  return {
    url: `${svc.url}/v1/async/task`,
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify(SINGLE),
    connections: cfg.connections,
    durationS: cfg.durationS,
  };
}

function retainedOf(s: Pick<Stats, 'tasks'>): number {
  return s.tasks.QUEUED + s.tasks.PROCESSING + s.tasks.COMPLETED + s.tasks.FAILED;
}

/** Retained tasks as the running service counts them (GET /stats). */
async function retainedByService(svc: ServiceProcess): Promise<number> {
  const r = await call(svc.url, 'GET', '/stats');
  if (r.status !== 200) throw new Error(`growth: GET /stats answered ${r.status}`);
  return retainedOf(r.body as Pick<Stats, 'tasks'>);
}

/**
 * Tops the store up to `target` retained tasks from this process, through the store API, while the
 * service process is stopped (one writer at a time); the store is closed before the service restarts.
 */
async function prefillStopped(
  env: Record<string, string>,
  target: number,
  sample: IdSample,
  log: (s: string) => void,
): Promise<void> {
  const o = storeOptionsOf(env);
  const store = openSqliteStore(o.file, o.agingMs);
  try {
    await store.migrate();
    const toAdd = Math.max(
      0,
      target - retainedOf(await store.figures.stats({ notBefore: Date.now() - o.retentionMs })),
    );
    log(
      `growth: prefilling ${toAdd.toLocaleString('en-US')} tasks (service stopped), ` +
        `up to ${target.toLocaleString('en-US')} retained`,
    );
    let nextReport = 100_000;
    await prefillRetained(store, toAdd, sample, (p) => {
      if (p.done < nextReport && p.done < toAdd) return;
      nextReport += 100_000;
      if (toAdd >= 100_000)
        log(
          `growth: ${p.done.toLocaleString('en-US')} ` +
            `/ ${toAdd.toLocaleString('en-US')} written in ${Math.round(p.seconds)} s`,
        );
    });
  } finally {
    await store.close();
  }
}

/** Sequential GET /stats (after warm-ups), timed from the request to the last byte of the answer. */
async function timeStats(svc: ServiceProcess): Promise<number[]> {
  const once = async (): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`${svc.url}/stats`, { headers: { authorization: AUTH.authorization } });
    await res.text();
    if (res.status !== 200) throw new Error(`GET /stats answered ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < STATS_WARMUPS; i++) await once();
  const out: number[] = [];
  for (let i = 0; i < STATS_CALLS; i++) out.push(await once());
  return out;
}

function failedOf(rs: LoadResult[]): number {
  return rs.reduce((n, r) => n + r.non2xx + r.errors, 0);
}

function loadIntegrity(scenario: string, rs: LoadResult[]): Integrity {
  const total = rs.reduce((n, r) => n + r.total, 0);
  return {
    scenario,
    expected: total,
    observed: total - failedOf(rs),
    failedRequests: failedOf(rs),
    lost: 0,
    duplicates: 0,
  };
}

/**
 * Growth: single submit and polling on a nearly empty store (10,000 tasks) and on one of
 * `cfg.growthTasks` retained tasks, each served by its own service process (`aeq serve`, data dir
 * of this scenario), both running, the loads interleaved between them; GET /stats and the resident
 * memory of the large store's process. The prefills write the SQLite files from the bench before
 * the services start, and are flushed to disk (`sync`) first, so that the kernel's writeback of a
 * freshly written 2.6 GB file does not run during the measurements.
 */
export async function runGrowthScenario(
  load: LoadGenerator,
  cfg: BenchConfig,
  log: (s: string) => void,
): Promise<ScenarioResult> {
  const cmd = serviceCommand(cfg.quick);
  if (!cfg.quick) {
    log('growth: building the service once (npm run build), to run node dist/cli/main.js');
    await buildService();
  }
  const dirs = [
    fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-bench-growth-small-')),
    fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-bench-growth-large-')),
  ] as const;
  const [smallEnv, largeEnv] = dirs.map(serviceEnv) as [Record<string, string>, Record<string, string>];
  const running: ServiceProcess[] = [];
  try {
    const smallSample = new IdSample(POLL_SAMPLE);
    const largeSample = new IdSample(POLL_SAMPLE);
    await prefillStopped(smallEnv, SMALL_STORE, smallSample, log);
    await prefillStopped(largeEnv, cfg.growthTasks, largeSample, log);
    log('growth: flushing the prefilled files to disk (sync)');
    execFileSync('sync');
    log(
      `growth: starting the ${cmd.label} twice: on the ${SMALL_STORE.toLocaleString('en-US')}-task ` +
        `store and on the ${cfg.growthTasks.toLocaleString('en-US')}-task store`,
    );
    const small = await startServiceProcess(cmd, smallEnv);
    running.push(small);
    const large = await startServiceProcess(cmd, largeEnv);
    running.push(large);
    const readyRssMb = memoryOf(large.pid).rssMb;
    const memSmall = rssSampler(small.pid, RSS_EVERY_MS);
    const mem = rssSampler(large.pid, RSS_EVERY_MS);
    const heapSmall = heapSampler(small.url, HEAP_EVERY_MS);
    const heap = heapSampler(large.url, HEAP_EVERY_MS);
    const retained = await retainedByService(large);
    log(
      `growth: GET /stats x ${STATS_CALLS} over ${retained.toLocaleString('en-US')} tasks, ` +
        `then submit and poll, interleaved between the two stores`,
    );
    const statsMs = await timeStats(large);
    for (const svc of running) {
      const probe = await call(svc.url, 'POST', '/v1/async/task', SINGLE);
      if (probe.status !== 202) throw new Error(`growth: probe submit answered ${probe.status}`);
    }
    const submits = await pairedRuns(
      load,
      cfg,
      { job: submitJob(small, cfg), pid: small.pid },
      { job: submitJob(large, cfg), pid: large.pid },
    );
    const polls = await pairedRuns(
      load,
      cfg,
      { job: pollJob(small, cfg, smallSample.ids, path.join(dirs[0], 'poll-paths.json')), pid: small.pid },
      { job: pollJob(large, cfg, largeSample.ids, path.join(dirs[1], 'poll-paths.json')), pid: large.pid },
    );
    const smallMem = memSmall.stop();
    const largeMem = mem.stop();
    const smallHeapMb = await heapSmall.stop();
    const largeHeapMb = await heap.stop();

    const at = `growth (${cfg.growthTasks.toLocaleString('en-US')} tasks)`;
    const rps = (rs: LoadResult[]) => rs.map((r) => r.requestsPerS);
    const smallName = 'same, 10,000-task store';
    const figures: Figure[] = [
      figure({
        scenario: `${at}: single submit`,
        metric: 'requests/s',
        unit: 'req/s',
        runs: rps(submits.large),
        baseline: { name: smallName, value: median(rps(submits.small)) },
        target: { op: 'ratio>=', value: 0.8 },
      }),
      figure({
        scenario: `${at}: single submit`,
        metric: 'requests per CPU-second of the service process',
        unit: 'req/CPU-s',
        runs: requestsPerCpuSecond(submits.large),
        baseline: { name: smallName, value: median(requestsPerCpuSecond(submits.small)) },
      }),
      figure({
        scenario: `${at}: polling`,
        metric: 'requests/s',
        unit: 'req/s',
        runs: rps(polls.large),
        baseline: { name: smallName, value: median(rps(polls.small)) },
        target: { op: 'ratio>=', value: 0.8 },
      }),
      figure({
        scenario: `${at}: polling`,
        metric: 'requests per CPU-second of the service process',
        unit: 'req/CPU-s',
        runs: requestsPerCpuSecond(polls.large),
        baseline: { name: smallName, value: median(requestsPerCpuSecond(polls.small)) },
      }),
      figure({
        scenario: `${at}: memory`,
        metric:
          `max VmRSS of the large store's ${cmd.label} from its first request to ` +
          `the end of the runs (/stats, submit, poll), read every ${RSS_EVERY_MS} ms`,
        unit: 'MB',
        runs: [largeMem.maxRssMb],
        target: { op: '<', value: 300, unit: 'MB' },
      }),
      figure({
        scenario: `${at}: memory`,
        metric: 'VmHWM (peak RSS since its start) of the same process after the runs',
        unit: 'MB',
        runs: [largeMem.hwmMb],
      }),
      figure({
        scenario: `${at}: memory`,
        metric: 'of that max VmRSS: anonymous pages (RssAnon: heap, SQLite page cache, allocator)',
        unit: 'MB',
        runs: [largeMem.anonAtMaxMb],
      }),
      figure({
        scenario: `${at}: memory`,
        metric: 'of that max VmRSS: file pages (RssFile: mapped binaries)',
        unit: 'MB',
        runs: [largeMem.fileAtMaxMb],
      }),
      figure({
        scenario: `${at}: memory`,
        metric:
          `max V8 heap of the same process (nodejs_heap_size_total_bytes of GET /metrics, ` +
          `read every ${HEAP_EVERY_MS} ms)`,
        unit: 'MB',
        runs: [largeHeapMb],
      }),
      figure({
        scenario: `${at}: memory`,
        metric: 'VmRSS of the same process once ready, before its first request',
        unit: 'MB',
        runs: [readyRssMb],
      }),
      figure({
        scenario: `${at}: memory`,
        metric: "max VmRSS of the 10,000-task store's process (started the same way) over the same period",
        unit: 'MB',
        runs: [smallMem.maxRssMb],
      }),
      figure({
        scenario: `${at}: memory`,
        metric: 'VmHWM of that process after the runs',
        unit: 'MB',
        runs: [smallMem.hwmMb],
      }),
      figure({ scenario: `${at}: memory`, metric: 'max V8 heap of that process', unit: 'MB', runs: [smallHeapMb] }),
      figure({
        scenario: `${at}: GET /stats`,
        metric: `p99 of ${STATS_CALLS} sequential calls`,
        unit: 'ms',
        runs: [percentile(statsMs, 99)],
        target: { op: '<', value: 50, unit: 'ms' },
      }),
      figure({
        scenario: `${at}: GET /stats`,
        metric: `p50 of ${STATS_CALLS} sequential calls`,
        unit: 'ms',
        runs: [percentile(statsMs, 50)],
      }),
    ];
    const integrity: Integrity[] = [
      // Every prefilled task is retained, as the large store's service counts them before its loads.
      {
        scenario: 'growth prefill (retained tasks)',
        expected: cfg.growthTasks,
        observed: retained,
        failedRequests: 0,
        lost: Math.max(0, cfg.growthTasks - retained),
        duplicates: Math.max(0, retained - cfg.growthTasks),
      },
      loadIntegrity('growth submit', [...submits.small, ...submits.large]),
      loadIntegrity('growth polling', [...polls.small, ...polls.large]),
    ];
    return { figures, integrity };
  } finally {
    await Promise.all(running.map((svc) => svc.stop()));
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}
