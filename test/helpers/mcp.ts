import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { AEQ_COMMAND } from './cli.js';
import type { RunningService } from './service.js';
import { until } from './wait.js';

/** Every tool the MCP server lists, in its order. */
export const TOOL_NAMES = [
  'ask',
  'submit_batch',
  'get_task',
  'wait_for_task',
  'list_tasks',
  'export_tasks',
  'prompt_research',
  'source_influence',
  'create_monitor',
  'list_monitors',
  'pause_monitor',
  'resume_monitor',
  'run_monitor_now',
  'monitor_metrics',
  'monitor_signals',
];

/** An SDK client connected to `POST /mcp` of the service with the given bearer key. */
export async function httpMcpClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'aeq-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/**
 * An SDK client connected to `aeq mcp` (the real CLI from the sources, spawned) over stdio. `stderr` collects the
 * child's standard error; any line on its stdout that is not JSON-RPC fails the transport (the SDK reports it).
 */
export async function stdioMcpClient(
  args: string[],
  env: Record<string, string>,
  o: { cwd?: string; stderr?: string[] } = {},
): Promise<Client> {
  const [command, ...pre] = AEQ_COMMAND as [string, ...string[]];
  const transport = new StdioClientTransport({
    command,
    args: [...pre, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'pipe',
    ...(o.cwd ? { cwd: o.cwd } : {}),
  });
  transport.stderr?.on('data', (c: Buffer) => o.stderr?.push(c.toString('utf8')));
  const client = new Client({ name: 'aeq-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A tool's structured answer (or its error object), from the JSON text every result carries. */
export function structured(r: unknown): any {
  const result = r as CallToolResult;
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`no text content: ${JSON.stringify(result)}`);
  const parsed = JSON.parse(first.text);
  // The text and the structured content say the same.
  if (result.structuredContent !== undefined && JSON.stringify(result.structuredContent) !== first.text)
    throw new Error('structuredContent differs from the text content');
  return parsed;
}

/** The JSON of a resource read (its one text content). */
export function resourceJson(read: ReadResourceResult): any {
  const first = read.contents[0];
  if (!first || !('text' in first)) throw new Error(`no text content: ${JSON.stringify(read)}`);
  return JSON.parse(first.text);
}

/** Steps the service's monitor scheduler until the monitor's newest run has completed (its tasks run meanwhile). */
export async function stepMonitorRun(svc: RunningService, id: string): Promise<void> {
  const scheduler = svc.app.monitors;
  if (!scheduler) throw new Error('this service runs no monitors');
  await until(
    'the run completed',
    async () => {
      await scheduler.runOnce();
      return (await svc.call('GET', `/v1/monitors/${id}/runs?limit=1`)).body.runs;
    },
    (rs) => (rs as Array<{ status: string }>)[0]?.status === 'completed',
    60_000,
    100,
  );
}

/** Makes an account and a key of its own through the internal routes; returns the key. */
export async function secondTenantKey(svc: RunningService, internalToken: string, name: string): Promise<string> {
  const internal = { authorization: `Bearer ${internalToken}` };
  const account = await svc.call('POST', '/internal/accounts', { name }, internal);
  if (account.status !== 201) throw new Error(`account: ${account.status} ${JSON.stringify(account.body)}`);
  const key = await svc.call('POST', '/internal/keys', { account: name }, internal);
  if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
  return key.body.key as string;
}
