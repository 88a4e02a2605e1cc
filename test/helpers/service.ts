import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { loadSettings } from '../../src/config/settings.js';
import type { Clock } from '../../src/domain/clock.js';
import { ALL_TASK_TYPES } from '../../src/domain/engine-catalog.js';
import type { EngineRegistry } from '../../src/engines/registry.js';
import { createLogger } from '../../src/ops/logger.js';

export const TEST_KEY = 'test-key-0123456789';

export interface CallResult {
  status: number;
  body: any;
  headers: Headers;
}

export interface RunningService {
  app: App;
  url: string;
  dataDir: string;
  /** fetch() against the service with the bearer key. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<CallResult>;
  /** fetch() with the body sent as given (bytes or text) and exactly the headers given (no key added). */
  raw(method: string, path: string, body?: string | Uint8Array, headers?: Record<string, string>): Promise<CallResult>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Clock of the service (tests move it forward instead of sleeping). */
  clock?: Clock;
  /** Collects every log line (JSON text) at level info and above, instead of discarding logs. */
  logLines?: string[];
  /** Engine adapters to run instead of the default registry. */
  registry?: EngineRegistry;
}

export interface TestClock extends Clock {
  advance(ms: number): void;
}

/** A clock that runs with real time but can be moved forward. */
export function movableClock(): TestClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
}

/**
 * A clock that stands still until the test moves it: nothing scheduled for later (a webhook retry,
 * a lease expiry, the retention window) becomes due on its own, so the test decides when it does
 * and then calls the part's `runOnce()`.
 */
export function steppedClock(start = Date.now()): TestClock {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
  };
}

/** Parses a response body as JSON when it is JSON, else returns the text. */
export async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function tempDir(prefix = 'aeq-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes an AEQ_CONFIG file and returns its path. */
export function writeConfig(dir: string, config: unknown): string {
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

const schemaByDataDir = new Map<string, string>();

/**
 * In the `postgres` test project, each data dir gets its own schema in the run's throwaway
 * database (a restart on the same data dir finds the same schema); otherwise SQLite is used.
 */
export async function testDatabaseUrl(dataDir: string): Promise<string | undefined> {
  if (process.env.AEQ_TEST_STORE !== 'postgres') return undefined;
  const known = schemaByDataDir.get(dataDir);
  if (known) return known;
  const base = inject('pgDatabaseUrl');
  const schema = `t_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`create schema ${schema}`);
  await c.end();
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  schemaByDataDir.set(dataDir, u.toString());
  return u.toString();
}

/**
 * Starts the real service in this process on a free loopback port, with its own data dir.
 * `env` is layered over a test default (sandbox on, fixed key, private webhook and page targets allowed).
 */
export async function startService(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<RunningService> {
  const dataDir = env.AEQ_DATA_DIR ?? tempDir();
  const databaseUrl = env.DATABASE_URL ?? (await testDatabaseUrl(dataDir));
  const settings = loadSettings({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    AEQ_SANDBOX: '1',
    AEQ_API_KEY: TEST_KEY,
    AEQ_WEBHOOK_ALLOW_PRIVATE: '1',
    AEQ_READER_ALLOW_PRIVATE: '1',
    PORT: '0',
    AEQ_DATA_DIR: dataDir,
    AEQ_LOG_LEVEL: process.env.AEQ_TEST_LOG ?? 'silent',
    // Test files run side by side, each with its services and browsers at nice 0: parse threads at nice 19 got a few
    // percent of a core there and attempts timed out with their upstream's answer in hand (vitest.config.ts).
    AEQ_PARSE_NICE: process.env.AEQ_PARSE_NICE ?? '10',
    ...env,
  });
  const lines = opts.logLines;
  const log = lines
    ? createLogger('info', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) })
    : createLogger(settings.logLevel);
  const app = await createApp(settings, {
    log,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.registry ? { registry: opts.registry } : {}),
  });
  const url = await app.listen();
  return {
    app,
    url,
    dataDir,
    async call(method, p, body, headers = {}) {
      const init: RequestInit = { method, headers: { authorization: `Bearer ${TEST_KEY}`, ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + p, init);
      return { status: res.status, body: await readBody(res), headers: res.headers };
    },
    async raw(method, p, body, headers = {}) {
      const init: RequestInit = { method, headers };
      if (body !== undefined) init.body = typeof body === 'string' ? body : Buffer.from(body);
      const res = await fetch(url + p, init);
      return { status: res.status, body: await readBody(res), headers: res.headers };
    },
    stop: () => app.stop(1000),
  };
}

/** Polls a task until it is terminal (or the deadline passes). */
export async function waitTerminal(svc: RunningService, id: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await svc.call('GET', `/v1/async/task/${id}`);
    if (r.body?.task?.status === 'COMPLETED' || r.body?.task?.status === 'FAILED') return r.body;
    if (Date.now() > deadline)
      throw new Error(`task ${id} not terminal after ${timeoutMs} ms: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Submits one task and waits for its terminal polling view. */
export async function runTask(svc: RunningService, envelope: unknown, timeoutMs?: number): Promise<any> {
  const r = await svc.call('POST', '/v1/async/task', envelope);
  if (r.status !== 202) throw new Error(`submit failed: ${r.status} ${JSON.stringify(r.body)}`);
  return waitTerminal(svc, r.body.task.id, timeoutMs);
}

/**
 * One step of the service's webhook sender: claims what is due at the service clock's time and waits
 * for the outcome of every attempt in flight (also those a wake-up started). Returns how many this step claimed.
 */
export async function deliverDue(svc: RunningService): Promise<number> {
  const sender = svc.app.webhooks;
  if (!sender) throw new Error('this service has no webhook sender');
  const n = await sender.runOnce();
  await sender.idle();
  return n;
}

/** One step of the service's worker: claims what is due at the service clock's time and waits for those attempts. */
export async function workDue(svc: RunningService): Promise<number> {
  const worker = svc.app.worker;
  if (!worker) throw new Error('this service has no worker');
  const n = await worker.runOnce();
  await worker.idle();
  return n;
}

/** Submits one task and returns its id (throws unless 202). */
export async function submit(svc: RunningService, envelope: unknown): Promise<string> {
  const r = await svc.call('POST', '/v1/async/task', envelope);
  if (r.status !== 202) throw new Error(`submit failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.task.id as string;
}

/**
 * An AEQ_CONFIG for fast tests: short retry waits and cooldowns, plus per-engine overrides.
 * `paused` engines never start a task, so contract tests observe queued tasks without running them.
 */
export function fastConfig(
  dir: string,
  o: { paused?: string[]; engines?: Record<string, unknown>; scheduler?: Record<string, number> } = {},
): string {
  const engines: Record<string, Record<string, unknown>> = {};
  for (const t of o.paused ?? []) engines[t] = { paused: true };
  for (const [t, e] of Object.entries(o.engines ?? {}))
    engines[t] = { ...engines[t], ...(e as Record<string, unknown>) };
  return writeConfig(dir, {
    scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100, pollMs: 50, ...o.scheduler },
    engines,
  });
}

/** Every engine task type, for configs that pause them all. */
export const ALL_ENGINES = ALL_TASK_TYPES;

/** A service whose engines never run: submitted tasks stay QUEUED (for contract tests). */
export async function startIdleService(
  env: Record<string, string> = {},
  opts: StartOptions = {},
): Promise<RunningService> {
  const dir = tempDir();
  return startService({ AEQ_CONFIG: fastConfig(dir, { paused: [...ALL_ENGINES] }), ...env }, opts);
}
