import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/swagger';
import { RequestError, validationError } from '../domain/request-errors.js';
import { callerOf } from '../http/caller.js';
import { errorEnvelopeSchema } from '../http/schemas/common.js';

/**
 * MCP requests in flight at once, on this process and per account. A waiting tool holds its request open up to its
 * budget (5 minutes at most), so these bound the sockets and polls the endpoint can hold, and one account cannot
 * take them all from the others; past them the request is refused at once (503 MCP_BUSY), never queued.
 */
const MAX_IN_FLIGHT = 64;
const MAX_IN_FLIGHT_PER_ACCOUNT = 16;

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The host name of a Host header, without its port (`[::1]:8080` → `[::1]`). */
function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.split(':')[0] ?? '';
}

const isLoopbackName = (name: string): boolean => LOOPBACK_NAMES.has(name) || /^127\.\d+\.\d+\.\d+$/.test(name);

/**
 * DNS-rebinding and cross-origin protection, the rule of the SDK's host-header validation (which it ships as Express
 * middleware, and which its transport options now defer to): on a service bound to loopback, the Host header must
 * name loopback (a page that rebinds its own name to 127.0.0.1 sends its name); and a request that carries an
 * Origin (a browser page) must come from this very origin. Desktop assistants and SDK clients send no Origin.
 * The bearer key is checked before this (the auth hook), so an unauthenticated request learns nothing here.
 */
function checkHostAndOrigin(req: FastifyRequest, listenHost: string): void {
  const host = req.headers.host ?? '';
  if (isLoopbackName(listenHost.toLowerCase()) && !isLoopbackName(hostnameOf(host)))
    throw new RequestError('FORBIDDEN_HOST');
  const origin = req.headers.origin;
  if (origin === undefined) return;
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    // `null` (a sandboxed page) or garbage: not this origin
  }
  if (originHost === null || originHost.toLowerCase() !== host.toLowerCase())
    throw new RequestError('FORBIDDEN_ORIGIN');
}

const STATELESS =
  'This MCP endpoint is stateless: POST each JSON-RPC message to /mcp; there is no session stream to GET and no ' +
  'session to DELETE.';

/**
 * `POST /mcp`: the MCP server over streamable HTTP, behind the API's bearer keys (the route is a client route: the
 * auth hook answers 401 without a key) and acting as the key's account through the API itself (http-request.ts).
 * The SDK and the tools load on the first MCP request, so an API process that never serves one never loads them.
 */
export function registerMcpEndpoint(app: FastifyInstance, o: { listenHost: string }): void {
  const open = new Set<AbortController>();
  const perAccount = new Map<string, number>();
  // Waits in flight end at once when the service stops, so their responses end and the close is not held up.
  app.addHook('preClose', async () => {
    for (const c of open) c.abort();
  });

  app.post(
    '/mcp',
    {
      schema: {
        summary: 'MCP (Model Context Protocol) over streamable HTTP, stateless',
        description:
          'One JSON-RPC message per POST (Accept: application/json, text/event-stream), as an MCP client sends ' +
          "them; the tools and resources act as the key's account through this API (docs/mcp.md). 403 " +
          'FORBIDDEN_HOST / FORBIDDEN_ORIGIN: DNS-rebinding and cross-origin guard; 503 MCP_BUSY: too many MCP ' +
          'requests in flight. GET and DELETE answer 405: there are no sessions.',
        response: {
          200: { description: 'The JSON-RPC answer, as JSON or as an event stream (with progress notifications)' },
          202: { description: 'A notification or response accepted (no body)' },
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          503: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      checkHostAndOrigin(req, o.listenHost);
      const { accountId } = callerOf(req);
      // One JSON-RPC message per request: a batch would carry up to a hundred tool calls past the limits below,
      // which count requests.
      if (Array.isArray(req.body))
        throw validationError([{ field: 'body', message: 'send one JSON-RPC message per request, not a batch' }]);
      const mine = perAccount.get(accountId) ?? 0;
      if (open.size >= MAX_IN_FLIGHT) throw new RequestError('MCP_BUSY');
      if (mine >= MAX_IN_FLIGHT_PER_ACCOUNT)
        throw new RequestError('MCP_BUSY', "Too many of this account's MCP requests in flight; retry in a moment.");
      // The slot is taken, and its release tied to the socket, before anything is awaited: requests arriving during
      // the await would otherwise all read the same count, and a socket closed meanwhile would never give it back.
      const closing = new AbortController();
      open.add(closing);
      perAccount.set(accountId, mine + 1);
      reply.hijack();
      const release = () => {
        if (!open.delete(closing)) return;
        closing.abort();
        const n = (perAccount.get(accountId) ?? 1) - 1;
        if (n > 0) perAccount.set(accountId, n);
        else perAccount.delete(accountId);
      };
      reply.raw.once('close', release);
      if (reply.raw.destroyed) return release();
      const { serveMcpRequest } = await import('./http-request.js');
      try {
        await serveMcpRequest(app, req, reply, closing.signal);
      } catch (e) {
        answerFailure(req, reply, e);
      }
    },
  );
  const refuse = async (): Promise<never> => {
    throw new RequestError('METHOD_NOT_ALLOWED', STATELESS);
  };
  app.get('/mcp', { schema: { hide: true } }, refuse);
  app.delete('/mcp', { schema: { hide: true } }, refuse);
}

/** A failure after the reply was handed to the transport: logged, and the error envelope if nothing was sent yet. */
function answerFailure(req: FastifyRequest, reply: FastifyReply, e: unknown): void {
  req.log.error({ err: e }, 'MCP request failed');
  if (reply.raw.headersSent) {
    reply.raw.end();
    return;
  }
  reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
  reply.raw.end(
    JSON.stringify({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'Internal error.', timestamp: new Date().toISOString() },
    }),
  );
}
