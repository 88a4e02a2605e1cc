import type { Command } from 'commander';
import { loadSettings } from '../../config/settings.js';
import { UsageError } from '../errors.js';
import { coerceError } from '../../domain/coerce-error.js';

/** `aeq serve` (the default), `aeq sandbox` and `aeq demo`: the service itself and its simulator. */
export function registerService(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('run the service: API and/or workers, as AEQ_ROLE says (the default command; npm start)')
    .action(serve);
  program
    .command('sandbox')
    .description('run only the upstream simulator on AEQ_SANDBOX_PORT (default 8090), for AEQ_SANDBOX_URL')
    .action(sandbox);
  program
    .command('demo')
    .description('run the sandbox demo: every engine and directive end to end (--monitor: a monitor over days)')
    .option('--monitor', 'instead: a monitor run once a day over past days, its engines apart and a change injected')
    .option('--days <n>', 'with --monitor: how many daily runs (2 to 60)', '14')
    .option(
      '--start <date>',
      "with --monitor: the first run's day, YYYY-MM-DD (default: --days ago); replays those days",
    )
    .option('--keep', 'with --monitor: keep the service running afterwards, to see the charts in the dashboard')
    .action(async (flags: { monitor?: boolean; days: string; start?: string; keep?: boolean }) => {
      if (flags.monitor) {
        const days = Number(flags.days);
        if (!Number.isInteger(days) || days < 2 || days > 60) throw new UsageError('--days must be 2 to 60');
        const start = flags.start === undefined ? undefined : Date.parse(`${flags.start}T00:00:00Z`);
        if (start !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(flags.start ?? '') || Number.isNaN(start)))
          throw new UsageError(`--start must be a date YYYY-MM-DD, got ${JSON.stringify(flags.start)}`);
        const { runMonitorDemo } = await import('../demo-monitor.js');
        process.exitCode = await runMonitorDemo({
          days,
          keep: flags.keep === true,
          ...(start === undefined ? {} : { start }),
        });
        return;
      }
      const { runDemo } = await import('../demo.js');
      process.exitCode = await runDemo();
    });
}

/** The service in the role AEQ_ROLE selects; SIGTERM and SIGINT drain it. */
async function serve(): Promise<void> {
  // Loaded here, not at the top: the client commands start without the service's modules.
  const [{ createApp }, { ConfigError }, { createLogger }, { DataDirLockedError }, { DataDirModeError }] =
    await Promise.all([
      import('../../app.js'),
      import('../../config/engine-config.js'),
      import('../../ops/logger.js'),
      import('../../store/sqlite/data-dir-lock.js'),
      import('../../store/sqlite/data-dir-mode.js'),
    ]);
  const settings = loadSettings();
  const log = createLogger(settings.logLevel);
  let app: Awaited<ReturnType<typeof createApp>>;
  try {
    app = await createApp(settings, { log });
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`aeq: configuration error: ${e.message}\n`);
      process.exit(2);
    }
    if (e instanceof DataDirLockedError || e instanceof DataDirModeError) {
      process.stderr.write(`aeq: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  try {
    await app.listen();
  } catch (e) {
    // listen() has stopped whatever it had started; nothing may live on (a worker without its API).
    const code = (e as { code?: string }).code;
    process.stderr.write(
      code === 'EADDRINUSE'
        ? `aeq: ${settings.host}:${settings.port} is in use by another process; set PORT (or HOST) to another\n`
        : `aeq: the HTTP server could not listen: ${coerceError(e).message}\n`,
    );
    log.flush();
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'draining');
    app
      .stop()
      .then(() => {
        log.info('stopped');
        log.flush();
        process.exit(0);
      })
      .catch((e: unknown) => {
        log.error({ err: e }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** The simulator alone, shared by several service processes through AEQ_SANDBOX_URL. */
async function sandbox(): Promise<void> {
  const { startSimulator } = await import('../../sandbox/server.js');
  const settings = loadSettings();
  const sim = await startSimulator({ host: settings.host, port: settings.sandboxPort });
  process.stdout.write(`${JSON.stringify({ msg: 'aeq sandbox listening', url: sim.url })}\n`);
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
