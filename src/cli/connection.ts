import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { AeqClient } from '@aeq/client';
import type { ConnectOptions } from './commands/options.js';
import { UsageError } from './errors.js';

/** A command's service: a remote aeq, or a sandbox service started in this process. */
export interface Connection {
  client: AeqClient;
  url: string;
  /** The answers come from the sandbox's simulated upstreams. */
  simulated: boolean;
  close(): Promise<void>;
}

export async function connect(o: ConnectOptions, env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  if (o.sandbox) return startEmbeddedSandbox(path.resolve(o.sandboxDir ?? '.aeq-sandbox'));
  const url = o.server ?? env.AEQ_URL;
  const apiKey = o.apiKey ?? env.AEQ_API_KEY;
  if (!url) throw new UsageError('no service: give --server URL or set AEQ_URL (or try --sandbox)');
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--server must be an http(s) URL, got ${JSON.stringify(url)}`);
  if (!apiKey) throw new UsageError('no API key: set AEQ_API_KEY (or give --api-key)');
  return { client: new AeqClient({ baseUrl: url, apiKey }), url, simulated: false, close: async () => undefined };
}

/**
 * The whole service (API, workers, upstream simulator) in this process on a free local port, with a key made for
 * this run. Its tasks belong to the default account, so a re-run with the same folder sees them again.
 */
async function startEmbeddedSandbox(dataDir: string): Promise<Connection> {
  const [{ createApp }, { loadSettings }, { createLogger }] = await Promise.all([
    import('../app.js'),
    import('../config/settings.js'),
    import('../ops/logger.js'),
  ]);
  const apiKey = `sandbox-${randomBytes(16).toString('hex')}`;
  const settings = loadSettings({
    AEQ_SANDBOX: '1',
    AEQ_API_KEY: apiKey,
    HOST: '127.0.0.1',
    PORT: '0',
    AEQ_DATA_DIR: dataDir,
    AEQ_LOG_LEVEL: 'silent',
  });
  const app = await createApp(settings, { log: createLogger('silent') });
  const url = await app.listen();
  return {
    client: new AeqClient({ baseUrl: url, apiKey }),
    url,
    simulated: true,
    close: () => app.stop(2000),
  };
}
