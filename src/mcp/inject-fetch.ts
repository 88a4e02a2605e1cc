import { Readable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';

/** The base URL the in-process client is given; nothing ever connects to it (see injectFetch). */
export const IN_PROCESS_BASE = 'http://aeq.in-process';

/**
 * A `fetch` that sends the typed client's requests through the service's own router (`app.inject`), in this
 * process: every request passes the same hooks as one from the network (the bearer check and its account, the
 * schemas, the error envelope), so the MCP endpoint reaches exactly what its caller's key reaches over HTTP, with
 * no socket and no URL of its own to configure.
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  const inProcess = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    for (const [k, v] of new Headers(init.headers).entries()) headers[k] = v;
    const options: InjectOptions = {
      method: (init.method ?? 'GET') as NonNullable<InjectOptions['method']>,
      url: url.pathname + url.search,
      headers,
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
      // The body comes as the route writes it: a reader that stops early (export_tasks after its rows) cancels the
      // rest, instead of the whole response being built in memory first.
      payloadAsStream: true,
    };
    const res = await app.inject(options);
    const type = res.headers['content-type'];
    const body = res.stream();
    // A 204 (a deleted monitor) has no body; a Response refuses one.
    if (res.statusCode === 204) body.destroy();
    return new Response(res.statusCode === 204 ? null : (Readable.toWeb(body) as ReadableStream<Uint8Array>), {
      status: res.statusCode,
      headers: typeof type === 'string' ? { 'content-type': type } : {},
    });
  };
  return inProcess as typeof fetch;
}
