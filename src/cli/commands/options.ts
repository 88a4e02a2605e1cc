import { InvalidArgumentError, type Command } from 'commander';

export interface ConnectOptions {
  server?: string;
  apiKey?: string;
  sandbox?: boolean;
  /** Where an embedded sandbox keeps its store: the same folder lets a re-run find the tasks it submitted. */
  sandboxDir?: string;
}

export const CONNECTION_HELP = `
The service: --server URL (or AEQ_URL) with the key in AEQ_API_KEY (or --api-key), or --sandbox for a sandbox
service started inside this command (simulated upstreams, store in --sandbox-dir, default ./.aeq-sandbox; for
aeq run, beside the results).`;

/** The service options every client command takes (see CONNECTION_HELP). */
export function withConnection(cmd: Command): Command {
  return cmd
    .option('--server <url>', 'the aeq service (default: $AEQ_URL)')
    .option('--api-key <key>', 'API key (default: $AEQ_API_KEY; the variable keeps it out of the process list)')
    .option('--sandbox', 'start a sandbox service inside this command: simulated upstreams, no setup')
    .option('--sandbox-dir <dir>', "the embedded sandbox's store; keep it to resume");
}

export function connectOptions(o: Record<string, unknown>): ConnectOptions {
  const out: ConnectOptions = {};
  if (typeof o.server === 'string') out.server = o.server;
  if (typeof o.apiKey === 'string') out.apiKey = o.apiKey;
  if (o.sandbox === true) out.sandbox = true;
  if (typeof o.sandboxDir === 'string') out.sandboxDir = o.sandboxDir;
  return out;
}

/** `A,B , c` → `['A', 'B', 'C']`. */
export function upperList(value: string): string[] {
  const xs = value
    .split(',')
    .map((x) => x.trim().toUpperCase())
    .filter((x) => x !== '');
  if (xs.length === 0) throw new InvalidArgumentError('expected a comma-separated list');
  return xs;
}

export function intIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}
