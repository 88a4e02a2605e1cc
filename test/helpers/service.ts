import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp, type App } from '../../src/app.js';
import { loadSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/ops/logger.js';

export const TEST_KEY = 'test-key-0123456789';

export interface RunningService {
  app: App;
  url: string;
  dataDir: string;
  /** fetch() against the service with the bearer key. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  stop(): Promise<void>;
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

/**
 * Starts the real service in this process on a free loopback port, with its own data dir.
 * `env` is layered over a test default (sandbox on, fixed key, private targets allowed).
 */
export async function startService(env: Record<string, string> = {}): Promise<RunningService> {
  const dataDir = env.AEQ_DATA_DIR ?? tempDir();
  const settings = loadSettings({
    AEQ_SANDBOX: '1',
    AEQ_API_KEY: TEST_KEY,
    AEQ_WEBHOOK_ALLOW_PRIVATE: '1',
    PORT: '0',
    AEQ_DATA_DIR: dataDir,
    AEQ_LOG_LEVEL: process.env.AEQ_TEST_LOG ?? 'silent',
    ...env,
  });
  const app = await createApp(settings, { log: createLogger(settings.logLevel) });
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
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, body: parsed, headers: res.headers };
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
    if (Date.now() > deadline) throw new Error(`task ${id} not terminal after ${timeoutMs} ms: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Submits one task and waits for its terminal polling view. */
export async function runTask(svc: RunningService, envelope: unknown, timeoutMs?: number): Promise<any> {
  const r = await svc.call('POST', '/v1/async/task', envelope);
  if (r.status !== 202) throw new Error(`submit failed: ${r.status} ${JSON.stringify(r.body)}`);
  return waitTerminal(svc, r.body.task.id, timeoutMs);
}
