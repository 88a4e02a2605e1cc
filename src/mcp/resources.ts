import { AeqError, type AeqClient } from '@aeq/client';
import { McpError, ErrorCode, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import {
  MONITOR_RUN_URI_TEMPLATE,
  monitorRunUri,
  parseResourceUri,
  TASK_URI_TEMPLATE,
  taskUri,
} from './resource-uris.js';

/** MCP's code for a resource that is not there (the specification's, not in the SDK's enum). */
const RESOURCE_NOT_FOUND = -32002;

/** How many recent tasks and monitors `resources/list` offers; the templates reach every other one. */
const LISTED = 20;

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: TASK_URI_TEMPLATE,
    name: 'task',
    title: "A task's result",
    description:
      "A task's polling view: its state and, when COMPLETED, the engine's answer with its cited sources (or, when " +
      'FAILED, why). Cite it as the source of an answer.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: MONITOR_RUN_URI_TEMPLATE,
    name: 'monitor-latest-run',
    title: "A monitor's latest run",
    description: "A monitor's newest run with its progress and each saved answer, where it names the tracked brands.",
    mimeType: 'application/json',
  },
] as const;

const json = (uri: string, value: unknown): ReadResourceResult => ({
  contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }],
});

/**
 * Reads one resource through the caller's client, so an id of another account is not found, exactly as the API
 * answers it (404): the error does not say whether the id exists elsewhere.
 */
export async function readResource(client: AeqClient, uri: string): Promise<ReadResourceResult> {
  const address = parseResourceUri(uri);
  if (!address)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown resource URI; use ${TASK_URI_TEMPLATE} or ${MONITOR_RUN_URI_TEMPLATE}`,
    );
  try {
    if (address.kind === 'task') return json(uri, await client.get(address.id));
    const { runs } = await client.monitorRuns(address.id, { limit: 1, include: 'results' });
    const run = runs?.[0];
    if (!run) throw new McpError(RESOURCE_NOT_FOUND, 'The monitor has not run yet: no latest run to read.', { uri });
    return json(uri, { monitorId: address.id, run });
  } catch (e) {
    if (e instanceof AeqError && e.status === 404)
      throw new McpError(RESOURCE_NOT_FOUND, `${e.code}: ${e.message}`, { uri });
    if (e instanceof AeqError) throw new McpError(ErrorCode.InternalError, `${e.code}: ${e.message}`, { uri });
    throw e;
  }
}

/** The account's newest tasks and its monitors' latest runs, as resources an assistant may open. */
export async function listResources(client: AeqClient): Promise<Resource[]> {
  const since = new Date(Date.now() - 24 * 3600_000).toISOString();
  const [tasks, monitors] = await Promise.all([
    client.tasks({ since, order: 'desc', limit: LISTED }),
    client.monitors({ limit: LISTED }),
  ]);
  const out: Resource[] = [];
  for (const t of tasks.tasks ?? []) {
    const id = t.task?.id;
    if (id)
      out.push({
        uri: taskUri(id),
        name: `task ${id}`,
        title: `${t.task?.taskType ?? 'task'} ${t.task?.status ?? ''} ${t.task?.createdAt ?? ''}`.trim(),
        mimeType: 'application/json',
      });
  }
  for (const m of monitors.monitors ?? []) {
    if (m.id)
      out.push({
        uri: monitorRunUri(m.id),
        name: `monitor ${m.id} latest run`,
        title: `Latest run of monitor ${m.name ?? m.id}`,
        mimeType: 'application/json',
      });
  }
  return out;
}
