import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../mcp/server.js';
import type { ConnectOptions } from './commands/options.js';
import { connect } from './connection.js';

/**
 * Serves MCP over this process's stdin and stdout until stdin ends (the assistant closed it) or a signal. Standard
 * output carries JSON-RPC alone: anything else there breaks the assistant's parser, so the console's output methods
 * write to standard error for the life of the command (an embedded sandbox logs nothing anyway).
 */
export async function serveMcpOverStdio(o: ConnectOptions): Promise<void> {
  for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error;
  const connection = await connect(o);
  const closing = new AbortController();
  const server = createMcpServer(connection.client, closing.signal);
  const transport = new StdioServerTransport();
  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      closing.abort();
      await server.close().catch(() => undefined);
      await connection.close();
    })();
    return stopped;
  };
  await server.connect(transport);
  process.stderr.write(
    `aeq mcp: serving on stdio, calling ${connection.simulated ? 'an embedded sandbox' : connection.url}\n`,
  );
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await stop();
}
