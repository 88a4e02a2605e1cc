import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAccount, createKey } from '../src/accounts/admin.js';
import { createApp, type App } from '../src/app.js';
import { loadSettings, type Settings } from '../src/config/settings.js';
import { ALL_TASK_TYPES } from '../src/domain/engine-catalog.js';
import type { TaskType } from '../src/domain/task-types.js';
import type { EngineAdapter } from '../src/engines/adapter.js';
import { EngineRegistry } from '../src/engines/registry.js';
import { createLogger } from '../src/ops/logger.js';

export const BENCH_KEY = 'bench-key-0123456789abcdef';
/** The operator's token of the bench's services: their /metrics need it. */
export const BENCH_INTERNAL_TOKEN = 'bench-internal-token-0123456789';
/** The engine the no-op adapter stands in for in the dispatch and webhook scenarios. */
export const NOOP_ENGINE: TaskType = 'SEARCH_A';

export interface BenchService {
  app: App;
  url: string;
  dataDir: string;
  /** A key of the account `bench`, made in the store like `aeq keys create`: found by its hash, not configured. */
  accountKey: string;
  accountId: string;
  stop(): Promise<void>;
}

/** What the no-op adapter saw: when each task's attempt began (performance.now()) and how many attempts ran. */
export interface AttemptLog {
  started: Map<string, number>;
  calls: number;
}

export function attemptLog(): AttemptLog {
  return { started: new Map(), calls: 0 };
}

/**
 * A no-op adapter: answers with an empty result, at once or after `delayMs()` milliseconds (an upstream that takes
 * that long, cut short by the attempt's signal), recording each attempt in `seen`.
 */
export function noopAdapter(seen?: AttemptLog, delayMs?: () => number): EngineAdapter {
  return {
    taskType: NOOP_ENGINE,
    needsAccount: false,
    run: async (ctx) => {
      if (seen) {
        seen.calls++;
        seen.started.set(ctx.taskId, performance.now());
      }
      const ms = delayMs?.() ?? 0;
      if (ms > 0) await sleep(ms, undefined, { signal: ctx.signal });
      return { text: '', markdown: '', sources: [], raw: null };
    },
  };
}

export interface ServiceOptions {
  /** Run the no-op engine with this concurrency; without it every engine is paused (API-only scenarios). */
  noopConcurrency?: number;
  seen?: AttemptLog;
  /** A postgres:// URL: the service uses the PostgreSQL store there instead of the embedded SQLite. */
  databaseUrl?: string;
  /**
   * `api`: an API-only process (no worker), as AEQ_ROLE=api; a worker to go with it is started by
   * startBenchWorker on the same database. Default `all` (API and worker in one process).
   */
  role?: 'all' | 'api';
}

/**
 * Writes the bench's config file into `dataDir` (every engine paused but the no-op engine, unpaused with
 * `noopConcurrency` when given) and returns its path.
 */
export function writeBenchConfig(dataDir: string, noopConcurrency?: number): string {
  const engines: Record<string, unknown> = {};
  for (const t of ALL_TASK_TYPES) engines[t] = { paused: true };
  // transport http: the no-op adapter uses none, and the engine's default (a browser) would mark it unable to
  // serve on a machine without Chromium, failing every task.
  if (noopConcurrency)
    engines[NOOP_ENGINE] = { paused: false, mode: 'anon', transport: 'http', concurrency: noopConcurrency };
  const configPath = path.join(dataDir, 'config.json');
  fs.writeFileSync(
    configPath,
    JSON.stringify({
      scheduler: { pollMs: 250 },
      engines,
      // One exit address wide enough that the pool never limits the no-op engine.
      exitAddresses: [{ id: 'bench-direct', country: 'US', maxConcurrent: 100_000 }],
    }),
  );
  return configPath;
}

/** A temp data dir with the bench's config file, and the settings of a service in `role` on it. */
function benchSettings(o: ServiceOptions, role: 'all' | 'api' | 'worker'): { settings: Settings; dataDir: string } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-bench-'));
  const settings = loadSettings({
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    AEQ_API_KEY: BENCH_KEY,
    AEQ_WEBHOOK_ALLOW_PRIVATE: '1',
    AEQ_DATA_DIR: dataDir,
    AEQ_CONFIG: writeBenchConfig(dataDir, o.noopConcurrency),
    AEQ_LOG_LEVEL: 'silent',
    AEQ_ROLE: role,
    PORT: '0',
  });
  return { settings, dataDir };
}

/**
 * Starts the real service in this process: embedded SQLite in a temp dir (or `databaseUrl`), silent logs, no
 * sandbox.
 */
export async function startBenchService(o: ServiceOptions = {}): Promise<BenchService> {
  const { settings, dataDir } = benchSettings(o, o.role ?? 'all');
  const registry = new EngineRegistry().register(noopAdapter(o.seen));
  const app = await createApp(settings, { log: createLogger('silent'), registry });
  const url = await app.listen();
  const account = await createAccount(app.store.accounts, 'bench', Date.now());
  const { key: accountKey } = await createKey(app.store.accounts, { account: 'bench' }, Date.now());
  return {
    app,
    url,
    dataDir,
    accountKey,
    accountId: account.id,
    async stop() {
      await app.stop(1000);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface BenchWorker {
  app: App;
  stop(): Promise<void>;
}

/**
 * A worker-only service (AEQ_ROLE=worker) in this process, on the PostgreSQL database of an API-only
 * bench service, started: what a worker process does from its start (store opened, operator changes
 * read, claim loop started) to its first claim.
 */
export async function startBenchWorker(o: ServiceOptions & { databaseUrl: string }): Promise<BenchWorker> {
  const { settings, dataDir } = benchSettings(o, 'worker');
  const registry = new EngineRegistry().register(noopAdapter(o.seen));
  const app = await createApp(settings, { log: createLogger('silent'), registry });
  await app.listen();
  return {
    app,
    async stop() {
      await app.stop(1000);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const AUTH = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };

/** fetch() against a bench service (or the bare server) with the key. */
export async function call(
  url: string,
  method: string,
  p: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url + p, {
    method,
    headers: AUTH,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}
