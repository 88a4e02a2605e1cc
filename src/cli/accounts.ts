import { parseArgs } from 'node:util';
import { AdminError, accountView, createAccount, createKey, keyView, listKeys, revokeKey } from '../accounts/admin.js';
import { openStore } from '../app.js';
import { loadServiceConfig } from '../config/engine-config.js';
import { loadSettings } from '../config/settings.js';

export const ACCOUNTS_USAGE = `       aeq accounts create NAME
       aeq accounts list
       aeq keys create --account NAME [--name LABEL] [--expires 90d]
       aeq keys list [--account NAME]
       aeq keys revoke PREFIX
`;

/**
 * `aeq accounts …` and `aeq keys …`: administration against the configured store (DATABASE_URL or the data dir),
 * with no server running. A created key is printed once, on stdout; everything else is JSON lines.
 */
export async function runAccountsCommand(group: string, argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { account: { type: 'string' }, name: { type: 'string' }, expires: { type: 'string' } },
  });
  const [action, arg] = positionals;
  const settings = loadSettings();
  const store = await openStore(settings, loadServiceConfig(settings).scheduler.agingMs);
  const print = (x: unknown) => process.stdout.write(`${JSON.stringify(x)}\n`);
  const now = Date.now();
  try {
    if (group === 'accounts' && action === 'create' && arg)
      print({ account: accountView(await createAccount(store, arg, now)) });
    else if (group === 'accounts' && action === 'list')
      for (const a of await store.listAccounts()) print(accountView(a));
    else if (group === 'keys' && action === 'create' && values.account) {
      const { key, record } = await createKey(
        store,
        { account: values.account, name: values.name, expires: values.expires },
        now,
      );
      print({ key, ...keyView(record, now) });
      process.stderr.write('aeq: the key is shown this once; only its hash is stored\n');
    } else if (group === 'keys' && action === 'list') {
      for (const k of await listKeys(store, values.account)) print(keyView(k, now));
    } else if (group === 'keys' && action === 'revoke' && arg) print(keyView(await revokeKey(store, arg, now), now));
    else {
      process.stderr.write(`aeq: usage:\n${ACCOUNTS_USAGE}`);
      return 2;
    }
    return 0;
  } catch (e) {
    if (e instanceof AdminError) {
      process.stderr.write(`aeq: ${e.code}: ${e.message}\n`);
      return 1;
    }
    throw e;
  } finally {
    await store.close();
  }
}
