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
    };
    const res = await app.inject(options);
    const type = res.headers['content-type'];
    // A 204 (a deleted monitor) has no body; a Response refuses one.
    return new Response(res.statusCode === 204 ? null : res.body, {
      status: res.statusCode,
      headers: typeof type === 'string' ? { 'content-type': type } : {},
    });
  };
  return inProcess as typeof fetch;
}
