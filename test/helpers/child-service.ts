import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { TEST_KEY, readBody, type CallResult } from './service.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ChildService {
  url: string;
  proc: ChildProcess;
  /** Log lines the child wrote (stdout and stderr). */
  output: string[];
  call(method: string, path: string, body?: unknown): Promise<CallResult>;
  /** Resolves with the exit code and signal once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the real service as a child process (`node --import tsx src/cli/main.ts`), the way an
 * operator runs it, and resolves once it logs that it listens. `env` is layered over a test default
 * (sandbox on, fixed key, any free port, info logs so the listen line can be read). `nodeArgs` runs
 * another form of it, such as the bundled service.
 */
export async function spawnService(
  env: Record<string, string>,
  timeoutMs = 30_000,
  nodeArgs: readonly string[] = ['--import', 'tsx', 'src/cli/main.ts'],
): Promise<ChildService> {
  const proc = spawn(process.execPath, [...nodeArgs], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      AEQ_SANDBOX: '1',
      AEQ_API_KEY: TEST_KEY,
      AEQ_WEBHOOK_ALLOW_PRIVATE: '1',
      AEQ_READER_ALLOW_PRIVATE: '1',
      PORT: '0',
      AEQ_LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`service did not start within ${timeoutMs} ms:\n${output.join('\n')}`)),
      timeoutMs,
    );
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        // An API (or all-in-one) process logs its URL; a worker-only process has none.
        if (!line.includes('aeq listening') && !line.includes('aeq worker running')) continue;
        try {
          const rec = JSON.parse(line) as { url?: string };
          clearTimeout(timer);
          resolve(rec.url ?? '');
        } catch {
          // not a JSON log line
        }
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (c: Buffer) => output.push(c.toString('utf8')));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`service exited before listening (code ${code}, signal ${signal}):\n${output.join('\n')}`));
    });
  });
  return {
    url,
    proc,
    output,
    exited,
    async call(method, p, body) {
      const init: RequestInit = { method, headers: { authorization: `Bearer ${TEST_KEY}` } };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
      }
      const res = await fetch(url + p, init);
      return { status: res.status, body: await readBody(res), headers: res.headers };
    },
  };
}

/** Kills a child (if still running) and waits for it to exit. */
export async function killChild(c: ChildService, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill(signal);
  await c.exited;
}

/** Opens the service's SQLite file read-only, to look at rows the API does not show. */
export function openStoreFile(dataDir: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(path.join(dataDir, 'aeq.sqlite'), { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}
