import type { Command } from 'commander';
import {
  AdminError,
  accountView,
  createAccount,
  createKey,
  keyView,
  listKeys,
  revokeKey,
} from '../../accounts/admin.js';
import { loadServiceConfig } from '../../config/engine-config.js';
import { loadSettings } from '../../config/settings.js';
import type { Store } from '../../store/store.js';

const STORE_HELP = `
Works on the configured store (DATABASE_URL, or the SQLite file in AEQ_DATA_DIR) with no server running.
Output is JSON lines.`;

/**
 * `aeq accounts …` and `aeq keys …`: administration against the configured store. A created key is printed once,
 * on stdout; everything else is JSON lines.
 */
export function registerAccounts(program: Command): void {
  const accounts = program.command('accounts').description('create and list accounts').addHelpText('after', STORE_HELP);
  accounts
    .command('create')
    .argument('<name>', 'letters, digits, dot, dash, underscore')
    .description('create an account')
    .action((name: string) =>
      withStore(async (store, now) => print({ account: accountView(await createAccount(store.accounts, name, now)) })),
    );
  accounts
    .command('list')
    .description('list the accounts')
    .action(() =>
      withStore(async (store) => {
        for (const a of await store.accounts.list()) print(accountView(a));
      }),
    );

  const keys = program.command('keys').description('create, list and revoke API keys').addHelpText('after', STORE_HELP);
  keys
    .command('create')
    .description('create a key for an account; it is printed this once (only its hash is stored)')
    .requiredOption('--account <name>', 'the account the key acts for')
    .option('--name <label>', 'a label to recognise the key by')
    .option('--expires <duration>', 'lifetime such as 90d, 12h or 30m (default: none)')
    .action((o: { account: string; name?: string; expires?: string }) =>
      withStore(async (store, now) => {
        const { key, record } = await createKey(store.accounts, o, now);
        print({ key, ...keyView(record, now) });
        process.stderr.write('aeq: the key is shown this once; only its hash is stored\n');
      }),
    );
  keys
    .command('list')
    .description("list keys (prefix, account, name, created, last used, expiry, revocation; never a key's secret)")
    .option('--account <name>', "only this account's keys")
    .action((o: { account?: string }) =>
      withStore(async (store, now) => {
        for (const k of await listKeys(store.accounts, o.account)) print(keyView(k, now));
      }),
    );
  keys
    .command('revoke')
    .argument('<prefix>', "the key's 12-character prefix, as `aeq keys list` shows it")
    .description('revoke a key: refused from the next request on')
    .action((prefix: string) =>
      withStore(async (store, now) => print(keyView(await revokeKey(store.accounts, prefix, now), now))),
    );
}

function print(x: unknown): void {
  process.stdout.write(`${JSON.stringify(x)}\n`);
}

async function withStore(f: (store: Store, now: number) => Promise<void>): Promise<void> {
  const { openStore } = await import('../../app.js');
  const settings = loadSettings();
  const store = await openStore(settings, loadServiceConfig(settings).scheduler.agingMs);
  try {
    await f(store, Date.now());
  } catch (e) {
    if (!(e instanceof AdminError)) throw e;
    process.stderr.write(`aeq: ${e.code}: ${e.message}\n`);
    process.exitCode = 1;
  } finally {
    await store.close();
  }
}
