#!/usr/bin/env node
import { createApp } from '../app.js';
import { ConfigError } from '../config/engine-config.js';
import { SettingsError, loadSettings } from '../config/settings.js';
import { createLogger } from '../ops/logger.js';
import { ACCOUNTS_USAGE, runAccountsCommand } from './accounts.js';

/** `aeq` / `npm start`: the service in the role AEQ_ROLE selects; SIGTERM and SIGINT drain it. */
async function main(): Promise<void> {
  let settings: ReturnType<typeof loadSettings>;
  try {
    settings = loadSettings();
  } catch (e) {
    if (e instanceof SettingsError) {
      process.stderr.write(`aeq: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(settings.logLevel);
  let app: Awaited<ReturnType<typeof createApp>>;
  try {
    app = await createApp(settings, { log });
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`aeq: configuration error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  await app.listen();
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

const USAGE = `usage: aeq [serve]   run the service (API and/or workers, per AEQ_ROLE)
       aeq sandbox   run only the upstream simulator on AEQ_SANDBOX_PORT (default 8090), for AEQ_SANDBOX_URL
       aeq demo      run the sandbox demo: every engine and directive end to end
${ACCOUNTS_USAGE}`;

/** `aeq sandbox`: the simulator alone, shared by several service processes through AEQ_SANDBOX_URL. */
async function sandbox(): Promise<void> {
  const { startSimulator } = await import('../sandbox/server.js');
  const settings = loadSettings();
  const sim = await startSimulator({ host: settings.host, port: settings.sandboxPort });
  process.stdout.write(`${JSON.stringify({ msg: 'aeq sandbox listening', url: sim.url })}\n`);
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

const command = process.argv[2] ?? 'serve';
const run =
  command === 'serve'
    ? main
    : command === 'sandbox'
      ? sandbox
      : command === 'demo'
        ? () => import('./demo.js').then(async (m) => process.exit(await m.runDemo()))
        : command === 'accounts' || command === 'keys'
          ? async () => process.exit(await runAccountsCommand(command, process.argv.slice(3)))
          : async () => {
              process.stderr.write(
                command === '--help' || command === 'help' ? USAGE : `aeq: unknown command ${command}\n${USAGE}`,
              );
              process.exit(command === '--help' || command === 'help' ? 0 : 2);
            };

run().catch((e: unknown) => {
  process.stderr.write(`aeq: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
