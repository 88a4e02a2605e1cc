import os from 'node:os';
import pg from 'pg';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: every test on the embedded SQLite store, and the HTTP contract, lifecycle, dashboard and security
 * suites again on PostgreSQL (`AEQ_TEST_STORE=postgres` makes startService use a fresh schema).
 * Without a reachable PostgreSQL the second project is left out and the reason is printed.
 */
const PG_URL = process.env.AEQ_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<string | null> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('select 1');
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const pgProblem = await postgresReachable();
if (pgProblem) {
  console.warn(
    `\n[aeq] PostgreSQL suite SKIPPED: ${PG_URL} is not reachable (${pgProblem}). Start PostgreSQL or set AEQ_TEST_DATABASE_URL.\n`,
  );
}

/**
 * Two test files at a time at least: most files wait on child processes, sockets and the sandbox's delays, so on
 * a 2-CPU machine (where Vitest's default would be one) two overlap well (the suite: 867 s -> 707 s).
 */
const MAX_WORKERS = Math.max(2, os.availableParallelism() - 1);

/**
 * Parse threads at nice 10, not the service's default 19, in every service a test starts (in process or as a child):
 * beside the other test files' services and browsers, all at nice 0, nice-19 threads starved and attempts that
 * parse timed out (docs/configuration.md, AEQ_PARSE_NICE).
 */
const common = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  /**
   * A worker process keeps its modules from one test file to the next. Every file starts its own services, stores
   * and clocks, and no test mocks a module or changes a global, so nothing carries over; importing the service's
   * module graph afresh for each of some 250 files cost 350 s of the suite's worker time (now under 30 s), and the
   * whole suite went from 1,240 s to 819 s on this machine, with the same results.
   */
  isolate: false,
  env: { AEQ_PARSE_NICE: '10' },
};

/**
 * Lifecycle tests that drive a child process on the SQLite file stay SQLite-only; so do the security tests that read
 * the SQLite file's bytes or test one module alone, and the suites that never touch the store.
 */
const SQLITE_ONLY = [
  'test/lifecycle/crash-recovery.test.ts',
  'test/lifecycle/sigterm-drain.test.ts',
  'test/lifecycle/data-dir-lock.test.ts',
  // The bundled service in its own processes on their own SQLite files: how it is loaded, not the store.
  'test/lifecycle/bundled-service.test.ts',
  'test/security/secrets.test.ts',
  'test/security/logger-redaction.test.ts',
  // Nothing of these reaches the store: pathological text through the analysis, the browser's address guard, and the
  // HTTP body limits. Run again on PostgreSQL they took some 70 s of a worker and tested nothing new.
  'test/security/redos.test.ts',
  'test/security/browser-guard.test.ts',
  'test/contract/body-limits-clients.test.ts',
];

/**
 * Files that keep both cores busy on their own (the real-page corpora through the parse pool, several service
 * processes, the comparison benchmark). Run beside each other or beside the rest they took twice as long and made
 * time-bound tests fail (2 of 2,000 tasks in the multi-process test, at the parent commit too); so they run after the
 * rest, one at a time.
 */
const HEAVY = [
  'test/real/web-corpus.test.ts',
  'test/real/web-heldout.test.ts',
  'test/real/web-articles-2026.test.ts',
  'test/scale/**/*.test.ts',
  'test/bench/quick.test.ts',
];

export default defineConfig({
  test: {
    maxWorkers: MAX_WORKERS,
    projects: [
      { test: { ...common, name: 'sqlite', include: ['test/**/*.test.ts'], exclude: HEAVY } },
      {
        test: {
          ...common,
          name: 'sqlite-heavy',
          include: HEAVY,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      ...(pgProblem
        ? []
        : [
            {
              test: {
                ...common,
                name: 'postgres',
                include: [
                  'test/contract/**/*.test.ts',
                  'test/lifecycle/**/*.test.ts',
                  'test/dashboard/**/*.test.ts',
                  'test/security/**/*.test.ts',
                ],
                exclude: SQLITE_ONLY,
                env: { ...common.env, AEQ_TEST_STORE: 'postgres' },
                globalSetup: ['test/pg-global-setup.ts'],
              },
            },
          ]),
    ],
  },
});
