import type { AeqClient } from '@aeq/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import { dateTimeMs } from '../domain/clock.js';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.js';
import { refusal, refusalOf } from './results.js';
import { TOOLS, type ToolContext, type ToolDefinition } from './tools.js';

/** The MCP server's name and version, as the OpenAPI document versions the API it calls. */
const SERVER_INFO = { name: 'aeq', version: '1.0.0' } as const;

const INSTRUCTIONS =
  'aeq asks answer engines, chatbots and search engines questions and returns their answers with the cited ' +
  'sources. Use ask for one question on one engine; submit_batch for many; prompt_research to find what people ' +
  'ask about a topic; source_influence to measure which cited pages shaped an answer; the monitor tools to track a ' +
  "brand's visibility over time. Waiting tools return a task id when their budget runs out: call wait_for_task " +
  'with it instead of asking again. Cite results by their resource URI (aeq://tasks/{id}).';

/**
 * One validator per tool, compiled once per process: the arguments are checked against the tool's input schema
 * before any call (with the schema's defaults filled in), so a bad argument is a tool error naming the field, and
 * the API is never sent what it would refuse anyway. Formats as the API reads them (task-list.ts).
 */
const ajv = new Ajv({
  allErrors: true,
  useDefaults: true,
  coerceTypes: false,
  formats: { 'date-time': (s: string) => dateTimeMs(s) !== null },
});
const validators = new Map<string, ValidateFunction>(TOOLS.map((t) => [t.name, ajv.compile(t.inputSchema)]));
const byName = new Map<string, ToolDefinition>(TOOLS.map((t) => [t.name, t]));

/** The arguments checked and completed, or the refusal naming each bad field (as the API's VALIDATION_ERROR). */
function validated(
  tool: ToolDefinition,
  raw: unknown,
): { ok: true; args: Record<string, unknown> } | { ok: false; refusal: CallToolResult } {
  const args: unknown = structuredClone(raw ?? {});
  const validate = validators.get(tool.name);
  if (!validate || validate(args)) return { ok: true, args: args as Record<string, unknown> };
  const details = (validate.errors ?? []).map((e) => ({
    field: [e.instancePath.slice(1).replaceAll('/', '.'), e.params.missingProperty ?? e.params.additionalProperty]
      .filter((x): x is string => typeof x === 'string' && x !== '')
      .join('.'),
    message: e.message ?? 'is invalid',
  }));
  return {
    ok: false,
    refusal: refusal('VALIDATION_ERROR', `Invalid arguments for ${tool.name}: fix the fields in details.`, details),
  };
}

/**
 * The MCP server of one client: its tools and resources, all through `client` (the caller's key), so what it can
 * reach is exactly what the API lets that key reach. The stdio command makes one for its life; the HTTP endpoint
 * one per request. `closing` aborts every wait in flight (the service stopping, or the request's connection gone).
 */
export function createMcpServer(client: AeqClient, closing?: AbortSignal): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions: INSTRUCTIONS,
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: { title: t.title, readOnlyHint: t.readOnly, openWorldHint: true },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool)
      return refusal('UNKNOWN_TOOL', `No tool named ${JSON.stringify(request.params.name)}; see tools/list.`, {
        tools: TOOLS.map((t) => t.name),
      });
    const checked = validated(tool, request.params.arguments);
    if (!checked.ok) return checked.refusal;
    const token = request.params._meta?.progressToken;
    const signal = closing ? AbortSignal.any([extra.signal, closing]) : extra.signal;
    const ctx: ToolContext = {
      client,
      signal,
      progress: async (p) => {
        if (token === undefined || signal.aborted) return;
        // A notification that cannot be sent (the client went away) must not fail the call itself.
        await extra
          .sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...p } })
          .catch(() => undefined);
      },
    };
    try {
      return await tool.run(checked.args, ctx);
    } catch (e) {
      return refusalOf(e);
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...RESOURCE_TEMPLATES] }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(client) }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(client, request.params.uri));
  return server;
}
