import { AeqClient } from '@aeq/client';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../accounts/bearer.js';
import { IN_PROCESS_BASE, injectFetch } from './inject-fetch.js';
import { createMcpServer } from './server.js';

/**
 * Serves one MCP message (a POST to /mcp) statelessly: a server and a transport made for this request alone, whose
 * client carries this request's bearer key (already accepted by the auth hook) into the API in process. Nothing
 * outlives the response: the next request, with whatever key it carries, starts afresh. The reply is hijacked: the
 * SDK's transport writes the JSON-RPC answer (an SSE stream when the call sends progress, or JSON) itself.
 * `closing` aborts the call's waits: the service stopping, or the response's connection gone.
 */
export async function serveMcpRequest(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  closing: AbortSignal,
): Promise<void> {
  const client = new AeqClient({
    baseUrl: IN_PROCESS_BASE,
    apiKey: bearerToken(req.headers.authorization),
    fetch: injectFetch(app),
  });
  const server = createMcpServer(client, closing);
  // Stateless (no session id): see docs/mcp.md, "Sessions".
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  reply.raw.once('close', () => {
    void transport.close().catch(() => undefined);
    void server.close().catch(() => undefined);
  });
  await server.connect(transport);
  await transport.handleRequest(req.raw, reply.raw, req.body);
}
