import fs from 'node:fs';
import path from 'node:path';
import { newTaskId } from '../../src/domain/task-id.js';
import type { NewTask } from '../../src/domain/task.js';
import type { TaskType } from '../../src/domain/task-types.js';
import { startBareServer, type CannedBodies } from '../bare-server.js';
import { figure, type BenchConfig, type Figure, type Integrity, type ScenarioResult } from '../figures.js';
import { requestsPerCpuSecond, type LoadGenerator, type LoadJob, type LoadResult } from '../load.js';
import { median } from '../stats.js';
import { AUTH, call, startBenchService, type BenchService } from '../service.js';

const SINGLE = { taskType: 'SEARCH_A', payload: { prompt: 'best trail running shoes for wide feet', country: 'US' } };

/** 500 envelopes over several engines, priorities, payload shapes and a webhook now and then. */
function mixedBatch(n: number): unknown[] {
  const kinds: Array<(i: number) => Record<string, unknown>> = [
    (i) => ({ taskType: 'SEARCH_A', payload: { prompt: `running shoes ${i}`, country: 'US' } }),
    (i) => ({ taskType: 'AIMODE', payload: { prompt: `what is the best crm for startups ${i}` }, priority: 5 }),
    (i) => ({ taskType: 'SEARCH_B_AI_BRIEF', payload: { query: `노트북 추천 ${i}` } }),
    (i) => ({ taskType: 'SEARCH_C_SEARCH', payload: { prompt: `cheap flights ${i}`, page: 2 } }),
    (i) => ({ taskType: 'FORUM', payload: { action: 'search', query: `mechanical keyboards ${i}` } }),
    (i) => ({
      taskType: 'WEB_SCRAPE',
      payload: { url: `https://example.com/p/${i}` },
      webhook: { url: 'https://hooks.example.com/aeq' },
    }),
    (i) => ({
      taskType: 'SEARCH_B_SERP',
      payload: { query: `garden tools ${i}`, include: { rawResponse: true } },
      priority: 10,
    }),
  ];
  return Array.from({ length: n }, (_, i) => kinds[i % kinds.length]!(i));
}

interface Pair {
  service: LoadResult[];
  bare: LoadResult[];
}

/** Runs the same load on the bare server and the service, interleaved so that drift hits both. */
async function pairedRuns(
  load: LoadGenerator,
  cfg: BenchConfig,
  job: (url: string) => LoadJob,
  svcUrl: string,
  bareUrl: string,
): Promise<Pair> {
  if (cfg.warmupS > 0) {
    await load.run({ ...job(bareUrl), durationS: cfg.warmupS });
    await load.run({ ...job(svcUrl), durationS: cfg.warmupS });
  }
  const out: Pair = { service: [], bare: [] };
  for (let i = 0; i < cfg.runs; i++) {
    // Profiling runs leave the baseline out, so that the profile holds the service's work only.
    if (cfg.baseline) out.bare.push(await load.run(job(bareUrl)));
    out.service.push(await load.run(job(svcUrl)));
  }
  return out;
}

/**
 * What the CPU time says of a paired load: requests per CPU-second of the server process, against
 * bare's (a ratio that does not depend on whether the load generator or the server saturated first),
 * and how busy each side was. The bench process hosts both servers, only one of them loaded at a time.
 */
function cpuFigures(scenario: string, p: Pair): Figure[] {
  const busy = (rs: LoadResult[], of: 'serverCpuMs' | 'loadCpuMs') => rs.map((r) => (100 * r[of]) / r.wallMs);
  if (p.bare.length === 0) return [];
  return [
    figure({
      scenario,
      metric: 'requests per CPU-second of the server process',
      unit: 'req/CPU-s',
      runs: requestsPerCpuSecond(p.service),
      baseline: { name: 'bare', value: median(requestsPerCpuSecond(p.bare)) },
    }),
    figure({
      scenario,
      metric: 'CPU of the server process, service runs (100% = one core)',
      unit: '%',
      runs: busy(p.service, 'serverCpuMs'),
    }),
    figure({ scenario, metric: 'CPU of the load generator, bare runs', unit: '%', runs: busy(p.bare, 'loadCpuMs') }),
  ];
}

function failedOf(rs: LoadResult[]): number {
  return rs.reduce((n, r) => n + r.non2xx + r.errors, 0);
}

function integrityOf(scenario: string, p: Pair): Integrity {
  const total = p.service.reduce((n, r) => n + r.total, 0);
  return {
    scenario,
    expected: total,
    observed: total - failedOf(p.service),
    failedRequests: failedOf(p.service) + failedOf(p.bare),
    lost: 0,
    duplicates: 0,
  };
}

/** Fills the store with `n` queued tasks of the bench account through the store itself, 5,000 per transaction. */
async function prefill(svc: BenchService, n: number): Promise<string[]> {
  const ids: string[] = [];
  const types: TaskType[] = ['SEARCH_A', 'AIMODE', 'SEARCH_B_AI_BRIEF', 'FORUM'];
  const now = Date.now();
  for (let start = 0; start < n; start += 5_000) {
    const chunk: NewTask[] = [];
    for (let i = start; i < Math.min(n, start + 5_000); i++) {
      const id = newTaskId(now);
      ids.push(id);
      chunk.push({
        id,
        taskType: types[i % types.length]!,
        payload: { prompt: `prefilled prompt ${i}` },
        priority: 1,
        idempotencyKey: null,
        accountId: svc.accountId,
        webhookUrl: null,
        country: 'US',
        maxAttempts: 3,
        creditsToCharge: 1,
        createdAt: now,
      });
    }
    await svc.app.store.tasks.insert({ tasks: chunk });
  }
  return ids;
}

/** Single submit, batch submit and polling, against the service (all engines paused) and the bare server. */
export async function runApiScenarios(
  load: LoadGenerator,
  cfg: BenchConfig,
  log: (s: string) => void,
  parts: ReadonlySet<'submit' | 'batch' | 'poll'>,
): Promise<ScenarioResult> {
  const svc = await startBenchService();
  try {
    // Canned answers of the bare server are real answers of the service, so both serialise the same shapes.
    const accepted = await call(svc.url, 'POST', '/v1/async/task', SINGLE);
    const taskId = (accepted.body as { task: { id: string } }).task.id;
    const polling = await call(svc.url, 'GET', `/v1/async/task/${taskId}`);
    const batch = mixedBatch(cfg.batchItems);
    const batchProbe = await call(svc.url, 'POST', '/v1/async/task/batch', batch);
    const probe = batchProbe.body as { summary: { failed: number }; results: Array<Record<string, unknown>> };
    if (accepted.status !== 202 || polling.status !== 200 || batchProbe.status !== 200 || probe.summary.failed !== 0) {
      throw new Error(
        `probe requests failed: ${accepted.status} ${polling.status} ` +
          `${batchProbe.status} ${JSON.stringify(probe.summary)}`,
      );
    }
    const canned: CannedBodies = { accepted: accepted.body, polling: polling.body, batchItem: probe.results[0]! };
    // The loads use an account's key, looked up by its hash (src/accounts/authenticator.ts); the bare server compares
    // the same token as its one configured key, so the ratios include the key lookup.
    const bare = await startBareServer(svc.accountKey, canned);
    const auth = { ...AUTH, authorization: `Bearer ${svc.accountKey}` };
    try {
      const figures: Figure[] = [];
      const integrity: Integrity[] = [];

      if (parts.has('submit')) {
        log('submit: single POST /v1/async/task, 50 connections');
        const single = await pairedRuns(
          load,
          cfg,
          (url) => ({
            url: `${url}/v1/async/task`,
            method: 'POST',
            headers: auth,
            body: JSON.stringify(SINGLE),
            connections: cfg.connections,
            durationS: cfg.durationS,
          }),
          svc.url,
          bare.url,
        );
        const bareRps = median(single.bare.map((r) => r.requestsPerS));
        figures.push(
          figure({
            scenario: 'single submit',
            metric: 'requests/s',
            unit: 'req/s',
            runs: single.service.map((r) => r.requestsPerS),
            baseline: { name: 'bare', value: bareRps },
            target: { op: 'ratio>=', value: 0.5 },
          }),
          figure({
            scenario: 'single submit',
            metric: 'p99 latency',
            unit: 'ms',
            runs: single.service.map((r) => r.p99Ms),
            target: { op: '<', value: 25, unit: 'ms' },
          }),
          figure({
            scenario: 'single submit (bare)',
            metric: 'p99 latency',
            unit: 'ms',
            runs: single.bare.map((r) => r.p99Ms),
          }),
          ...cpuFigures('single submit', single),
        );
        integrity.push(integrityOf('single submit', single));
      }
      if (parts.has('batch')) {
        log(`batch: POST /v1/async/task/batch of ${cfg.batchItems} mixed items, 1 connection`);
        const batches = await pairedRuns(
          load,
          cfg,
          (url) => ({
            url: `${url}/v1/async/task/batch`,
            method: 'POST',
            headers: auth,
            body: JSON.stringify(batch),
            connections: 1,
            durationS: cfg.durationS,
          }),
          svc.url,
          bare.url,
        );
        figures.push(
          figure({
            scenario: 'batch submit (500 mixed)',
            metric: 'p50 per batch',
            unit: 'ms',
            runs: batches.service.map((r) => r.p50Ms),
            target: { op: '<', value: 40, unit: 'ms' },
          }),
          figure({
            scenario: 'batch submit (500 mixed)',
            metric: 'items/s',
            unit: 'items/s',
            runs: batches.service.map((r) => r.requestsPerS * cfg.batchItems),
            baseline: { name: 'bare', value: median(batches.bare.map((r) => r.requestsPerS * cfg.batchItems)) },
            target: { op: '>=', value: 12_500, unit: 'items/s' },
          }),
        );
        integrity.push(integrityOf('batch submit', batches));
      }
      if (parts.has('poll')) {
        log(`poll: prefilling ${cfg.pollPrefill} tasks`);
        const ids = await prefill(svc, cfg.pollPrefill);
        // Ids spread over the whole store, shuffled so that reads do not walk the index in order.
        const sample = Array.from(
          { length: Math.min(ids.length, 20_000) },
          () => `/v1/async/task/${ids[Math.floor(Math.random() * ids.length)]!}`,
        );
        const pathsFile = path.join(svc.dataDir, 'poll-paths.json');
        fs.writeFileSync(pathsFile, JSON.stringify(sample));
        log('poll: GET /v1/async/task/{id}, 50 connections');
        const polls = await pairedRuns(
          load,
          cfg,
          (url) => ({
            url: `${url}/`,
            method: 'GET',
            headers: { authorization: auth.authorization },
            connections: cfg.connections,
            durationS: cfg.durationS,
            pathsFile,
          }),
          svc.url,
          bare.url,
        );
        figures.push(
          figure({
            scenario: `polling (${cfg.pollPrefill.toLocaleString('en-US')} tasks)`,
            metric: 'requests/s',
            unit: 'req/s',
            runs: polls.service.map((r) => r.requestsPerS),
            baseline: { name: 'bare', value: median(polls.bare.map((r) => r.requestsPerS)) },
            target: { op: 'ratio>=', value: 0.6 },
          }),
          figure({
            scenario: `polling (${cfg.pollPrefill.toLocaleString('en-US')} tasks)`,
            metric: 'p99 latency',
            unit: 'ms',
            runs: polls.service.map((r) => r.p99Ms),
          }),
          ...cpuFigures(`polling (${cfg.pollPrefill.toLocaleString('en-US')} tasks)`, polls),
        );
        integrity.push(integrityOf('polling', polls));
      }
      return { figures, integrity };
    } finally {
      await bare.close();
    }
  } finally {
    await svc.stop();
  }
}
