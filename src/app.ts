import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Authenticator } from './accounts/authenticator.js';
import { resolveApiKey } from './config/api-key.js';
import { resolveSecretsKey } from './config/secrets-key.js';
import { loadServiceConfig, type ServiceConfig } from './config/engine-config.js';
import type { Settings } from './config/settings.js';
import { systemClock, type Clock } from './domain/clock.js';
import type { TaskType } from './domain/task-types.js';
// The analysis' steps join the parse pool's table before any pool starts a thread (adapters load lazily).
import './analysis/source-influence/parse-tasks.js';
import { ParsePool } from './engines/parse-pool/pool.js';
import type { EngineRegistry } from './engines/registry.js';
import { TransportFactory } from './transport/transport-factory.js';
import { chromiumMissing, hasAppSurface, markBrowserEngines } from './transport/browser/browser-availability.js';
import { BrowserPool } from './transport/browser/browser-pool.js';
import { Metrics } from './ops/metrics.js';
import { storeLedger } from './pools/slot-ledger.js';
import { Pools } from './pools/pools.js';
import { RuntimeChanges } from './pools/runtime-changes.js';
import { AttemptRunner } from './queue/attempt-runner.js';
import { BatchCompleter } from './queue/batch-completer.js';
import { MonitorScheduler } from './queue/monitor-scheduler.js';
import { RetentionSweeper } from './queue/retention-sweeper.js';
import { InProcessWakeBus, type WakeBus } from './queue/wake-bus.js';
import { expiredWrite } from './queue/terminal-write.js';
import { Worker, type WorkerDeps } from './queue/worker.js';
import { exitOfferFor } from './queue/exit-offer.js';
import type { Simulator } from './sandbox/server.js';
import { routeToSandbox } from './sandbox/upstream-map.js';
import { claimDataDirMode } from './store/sqlite/data-dir-mode.js';
import { lockDataDir } from './store/sqlite/data-dir-lock.js';
import { openSqliteStore } from './store/sqlite/sqlite-store.js';
import { openArtifactDirectory } from './store/artifacts/directory.js';
import type { WorkerRegistration } from './store/ports.js';
import type { Store } from './store/store.js';
import { WebhookSender } from './webhooks/sender.js';
import { AccountSecrets } from './webhooks/account-secrets.js';
import { coerceError } from './domain/coerce-error.js';

export interface App {
  settings: Readonly<Settings>;
  config: ServiceConfig;
  store: Store;
  pools: Pools;
  metrics: Metrics;
  http: FastifyInstance | null;
  worker: Worker | null;
  webhooks: WebhookSender | null;
  /** Marks batches completed and queues their batch.completed delivery (processes that run workers). */
  batches: BatchCompleter | null;
  /** Runs monitors on their schedules and saves their results (processes that run workers). */
  monitors: MonitorScheduler | null;
  sweeper: RetentionSweeper;
  simulator: Simulator | null;
  apiKey: string;
  /** Base URL the HTTP server listens on (after listen()). */
  url: string | null;
  listen(): Promise<string>;
  stop(graceMs?: number): Promise<void>;
}

/** How often a process re-reads operator changes made through another process. */
const RUNTIME_SYNC_MS = 1000;
/** How often an API process re-reads the keys version: a key revoked elsewhere is refused within this. */
const KEYS_VERSION_POLL_MS = 500;
/** How often a worker process looks for batches whose tasks have all finished. */
const BATCH_CHECK_MS = 500;
/** How often a worker process looks for due monitors and runs that have finished. */
const MONITOR_CHECK_MS = 1000;

export interface AppOptions {
  log: Logger;
  /** Time for every part (the system clock unless a test passes one it steps). */
  clock?: Clock;
  registry?: EngineRegistry;
  /**
   * Shows an operator a line once on the console, outside the structured log (which is shipped and kept): the
   * generated API key. Standard error by default.
   */
  console?: (line: string) => void;
}

/** The configured store (DATABASE_URL, else the embedded one in the data dir), migrated. */
export async function openStore(settings: Readonly<Settings>, agingMs: number): Promise<Store> {
  // pg and the PostgreSQL modules load only when they are used (about 14 MB of memory otherwise).
  const store = settings.databaseUrl
    ? (await import('./store/postgres/postgres-store.js')).openPostgresStore(
        settings.databaseUrl,
        agingMs,
        settings.pgPoolMax,
      )
    : openSqliteStore(path.join(settings.dataDir, 'aeq.sqlite'), agingMs, settings.sqliteCacheMb);
  await store.migrate();
  return store;
}

/** Registers this worker process (store/workers/liveness.ts); a failure closes the store and says what failed. */
async function registerWorker(store: Store, at: number, log: Logger): Promise<WorkerRegistration> {
  try {
    return await store.workers.register({
      now: at,
      onLost: (e) =>
        log.warn({ err: e }, 'worker liveness signal lost: what this worker held is handed back; registering again'),
    });
  } catch (e) {
    await store.close().catch(() => undefined);
    throw new Error(`worker registration failed: ${coerceError(e).message}`, { cause: e });
  }
}

/**
 * Composition root: builds every part from the settings and wires them for the chosen role. On the embedded store the
 * data dir is locked first, before anything reads or hands back what is in it: a second process on it is refused
 * (DataDirLockedError, naming the holder) instead of taking the first one's tasks for a dead worker's; and a dir
 * serves one mode, the sandbox's or the live service's (DataDirModeError), so neither runs the other's tasks.
 */
export async function createApp(settings: Readonly<Settings>, opts: AppOptions): Promise<App> {
  const dirLock = settings.databaseUrl ? null : lockDataDir(settings.dataDir, settings.role);
  try {
    if (dirLock) claimDataDirMode(settings.dataDir, settings.sandbox ? 'sandbox' : 'live');
    return await assemble(settings, opts, () => dirLock?.release());
  } catch (e) {
    dirLock?.release();
    throw e;
  }
}

async function assemble(settings: Readonly<Settings>, opts: AppOptions, releaseDataDir: () => void): Promise<App> {
  const log = opts.log;
  const clock = opts.clock ?? systemClock;
  const now = (): number => clock.now();
  const config = loadServiceConfig(settings);
  let simulator: Simulator | null = null;
  let sandboxUrl: string | null = null;
  if (settings.sandbox) {
    // Several processes can share one simulator (`aeq sandbox`); otherwise each starts its own.
    if (settings.sandboxUrl) sandboxUrl = settings.sandboxUrl;
    else {
      // The simulator's routes and their Fastify load in sandbox mode only.
      simulator = await (await import('./sandbox/server.js')).startSimulator({ clock });
      sandboxUrl = simulator.url;
      log.info({ simulator: sandboxUrl }, 'sandbox upstreams started');
    }
    routeToSandbox(config, sandboxUrl);
  }
  // Said once, here: an engine that needs the browser cannot serve without Chromium (/capacity says so too).
  const needsBrowser = (Object.entries(config.engines) as Array<[TaskType, (typeof config.engines)[TaskType]]>).some(
    ([t, e]) => e.mode !== 'off' && (e.transport === 'browser' || hasAppSurface(t)),
  );
  const cannotServe = markBrowserEngines(config, needsBrowser ? chromiumMissing(settings.chromiumPath) : null);
  if (cannotServe.length > 0) {
    log.warn(
      { engines: cannotServe, reason: config.engines[cannotServe[0] as TaskType].unavailable },
      `engines that cannot serve on this machine: ${cannotServe.join(', ')}`,
    );
  }
  const store = await openStore(settings, config.scheduler.agingMs);
  // Artefacts' files: a directory on this host, or one every process mounts on PostgreSQL (docs/operations.md).
  const artifactFiles = openArtifactDirectory(settings.artifactDir);
  const metrics = new Metrics();
  const pools = new Pools(config, now);
  // A worker process registers with a liveness signal the store sees; its death hands back what it held.
  const registration = settings.role !== 'api' ? await registerWorker(store, now(), log) : null;
  const slots = store.poolSlots;
  let exitLeases: WorkerDeps['exitLeases'];
  if (slots && registration) {
    // Several workers share the exit addresses and accounts: their slots are recorded in the store.
    const ledger = storeLedger(slots, now, registration.id);
    pools.exits.useLedger(ledger);
    pools.accounts.useLedger(ledger);
    exitLeases = {
      offer: (taskType) => exitOfferFor(config, pools, taskType),
      release: (token) => slots.release(token),
    };
  }
  const { key: apiKey, generated, superseded } = resolveApiKey(settings.apiKey, settings.dataDir);
  if (superseded)
    log.warn(
      { apiKeyFile: superseded },
      'AEQ_API_KEY is set: the key generated on an earlier start (in this file) is no longer accepted; delete the file',
    );
  const apiKeyFile = path.join(settings.dataDir, 'api-key');
  if (generated) {
    // The key itself only on the console; the log says where it is kept.
    (opts.console ?? ((line: string) => process.stderr.write(`${line}\n`)))(
      `aeq: generated API key (shown once; kept in ${apiKeyFile}): ${apiKey}`,
    );
    log.warn({ apiKeyFile }, 'generated an API key: shown once on the console, kept in the data dir');
  }
  const secretsKey = resolveSecretsKey(settings.secretsKey, settings.dataDir, store.kind === 'postgres');
  // Each account's webhook signing secrets; AEQ_WEBHOOK_SECRET stays the default account's.
  const webhookSecrets = new AccountSecrets(store.webhookSecrets, {
    configured: settings.webhookSecrets,
    sealingKey: secretsKey,
    now,
  });

  const runsWorkers = settings.role !== 'api';
  const runsHttp = settings.role !== 'worker';
  const wake: WakeBus = settings.databaseUrl
    ? new (await import('./queue/postgres-wake-bus.js')).PostgresWakeBus(
        settings.databaseUrl,
        log.child({ component: 'wake' }),
        runsWorkers,
      )
    : new InProcessWakeBus();
  let webhooks: WebhookSender | null = null;
  let worker: Worker | null = null;
  let batches: BatchCompleter | null = null;
  let monitors: MonitorScheduler | null = null;
  const transports = new TransportFactory({
    allowPrivate: settings.readerAllowPrivate,
    sandboxWebBase: sandboxUrl ? `${sandboxUrl}/web` : null,
  });
  let browsers: BrowserPool | null = null;
  let parser: ParsePool | null = null;
  if (runsWorkers && registration) {
    webhooks = new WebhookSender(
      store.outbox,
      {
        retryBaseMs: settings.webhookRetryBaseMs,
        timeoutMs: settings.webhookTimeoutMs,
        allowPrivate: settings.webhookAllowPrivate,
        concurrency: 64,
        pollMs: 500,
        signing: webhookSecrets,
        holder: () => registration.id,
      },
      metrics,
      log.child({ component: 'webhooks' }),
      clock,
    );
    const sender = webhooks;
    // Launched on first use only; in sandbox mode the browser may reach the simulator and nothing else.
    browsers = new BrowserPool({
      executablePath: settings.chromiumPath,
      maxPages: settings.browserPages,
      log: log.child({ component: 'browser' }),
      ...(sandboxUrl ? { allowedOrigins: [new URL(sandboxUrl).origin] } : {}),
      // Outside the sandbox every connection of a page is checked for private addresses; the sandbox's
      // simulator is on loopback and is the only origin allowed there anyway.
      guardPrivate: !sandboxUrl && !settings.readerAllowPrivate,
      sandbox: settings.chromiumSandbox,
    });
    // Its threads start on the first parse and leave when idle (an API-only process has no pool at all).
    parser = new ParsePool({
      threads: settings.parseThreads,
      nice: settings.parseNice,
      ...(settings.parseHeapMb ? { maxHeapMb: settings.parseHeapMb } : {}),
      log: log.child({ component: 'parse-pool' }),
    });
    // The engines' and analyses' adapters (some 190 modules) load in a process that runs them, and only when no
    // registry is given: an API process, or one with its own adapters, starts without them.
    const registry = opts.registry ?? (await import('./adapters.js')).defaultRegistry();
    const runner = new AttemptRunner(config, registry, pools, transports, metrics, browsers, parser);
    worker = new Worker({
      tasks: store.tasks,
      workers: store.workers,
      registration,
      config,
      runner,
      metrics,
      log: log.child({ component: 'worker' }),
      clock,
      onWebhookQueued: () => sender.wake(),
      onSlotHandedOver: (t) => wake.publish(t),
      artifacts: artifactFiles,
      ...(exitLeases ? { exitLeases } : {}),
    });
    batches = new BatchCompleter(
      store.batches,
      settings.retentionMs,
      log.child({ component: 'batches' }),
      () => sender.wake(),
      clock,
    );
    monitors = new MonitorScheduler(
      store,
      { config, pools, now },
      {
        retentionMs: settings.retentionMs,
        runRetentionMs: settings.monitorRetentionMs,
        sampleSpacingMs: settings.monitorSampleSpacingMs,
        onWebhookQueued: () => sender.wake(),
      },
      log.child({ component: 'monitors' }),
      clock,
    );
  }
  const sweeper = new RetentionSweeper(
    { tasks: store.tasks, batches: store.batches, artifactFiles, figures: store.figures },
    settings.retentionMs,
    log.child({ component: 'retention' }),
    clock,
  );
  const w = worker;
  if (w) wake.subscribe((t) => w.notify(t as TaskType));
  const runtime = new RuntimeChanges(
    store.runtime,
    pools,
    config,
    log.child({ component: 'runtime-changes' }),
    now,
    (t) => wake.publish(t),
    { key: secretsKey, legacy: settings.internalToken },
  );
  // Operator changes made before this start (or by other processes) apply before any claim or check.
  await runtime.sync();
  const auth = new Authenticator(store.accounts, apiKey, now, log.child({ component: 'auth' }));
  // The HTTP surface (Fastify, its plugins, the routes, exports, the dashboard, MCP) loads in a process that serves
  // it: a worker process starts without it, which shortens its start after a crash.
  const http = runsHttp
    ? await (await import('./http/server.js')).buildHttpServer({
        settings,
        config,
        store,
        pools,
        runtime,
        metrics,
        log,
        apiKey,
        auth,
        webhookSecrets,
        artifactFiles,
        now,
        notify: (t: TaskType) => wake.publish(t),
      })
    : null;
  // The MCP endpoint sits on the API and calls it in process with the caller's key (src/mcp/http-endpoint.ts).
  if (http) (await import('./mcp/http-endpoint.js')).registerMcpEndpoint(http, { listenHost: settings.host });

  const app: App = {
    settings,
    config,
    store,
    pools,
    metrics,
    http,
    worker,
    webhooks,
    batches,
    monitors,
    sweeper,
    simulator,
    apiKey,
    url: null,
    // The HTTP listen comes first: when it fails (the port is taken) nothing else has started, everything built is
    // stopped, and the error goes to the caller, which exits non-zero.
    async listen() {
      if (http) {
        try {
          await auth.start(KEYS_VERSION_POLL_MS);
          const address = await http.listen({ host: settings.host, port: settings.port });
          app.url = address.replace('localhost', '127.0.0.1');
        } catch (e) {
          await app.stop(0).catch((err: unknown) => log.error({ err }, 'stopping after a failed listen failed'));
          throw e;
        }
      }
      worker?.start();
      webhooks?.start();
      batches?.start(BATCH_CHECK_MS);
      monitors?.start(MONITOR_CHECK_MS);
      sweeper.start(sweepIntervalMs(settings.retentionMs, store.kind));
      runtime.start(RUNTIME_SYNC_MS);
      if (http) {
        log.info({ url: app.url, role: settings.role, store: store.kind, sandbox: settings.sandbox }, 'aeq listening');
      } else {
        log.info({ role: settings.role, store: store.kind }, 'aeq worker running');
      }
      return app.url ?? '';
    },
    async stop(graceMs = 10_000) {
      if (http) await http.close();
      auth.stop();
      sweeper.stop();
      runtime.stop();
      if (worker) await worker.stop(graceMs);
      await batches?.stop();
      await monitors?.stop();
      if (webhooks) await webhooks.stop();
      if (registration) {
        // Whatever is still held (nothing after a full drain) goes back at once, then the signal ends.
        await store.workers
          .release({
            id: registration.id,
            now: now(),
            failedWrite: (t) => expiredWrite(t, config.engines[t.taskType].credits),
          })
          .catch((e: unknown) => log.error({ err: e }, 'hand-back at stop failed'));
        await registration.close().catch(() => undefined);
      }
      await wake.close();
      await transports.close();
      await browsers?.close();
      await parser?.close();
      if (simulator) await simulator.close();
      await store.close();
      releaseDataDir();
    },
  };
  return app;
}

/**
 * How often the retention sweep runs: a tenth of the window, between 1 s and 60 s. On PostgreSQL at most every 2 s:
 * /stats subtracts the expired tasks not deleted yet, which it reads for every account (store/stats.ts), so the
 * sweep keeps them to a few seconds of intake.
 */
function sweepIntervalMs(retentionMs: number, kind: Store['kind']): number {
  const interval = Math.min(60_000, Math.max(1000, Math.floor(retentionMs / 10)));
  return kind === 'postgres' ? Math.min(POSTGRES_SWEEP_MS, interval) : interval;
}
const POSTGRES_SWEEP_MS = 2_000;
