import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { RequestError, errorObject } from '../../domain/request-errors.js';
import type { HttpContext } from '../context.js';

/** Where the dashboard is served; its files are public (they hold no data), every call they make takes the key. */
const DASHBOARD_PATH = '/dashboard';

/**
 * The browser may run only the dashboard's own files and talk only to this service: no inline script, no other
 * origin, no framing. The API key typed into the page can then leave it only towards this service.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  // Files keep their names across builds: a browser asks again (and gets 304 while they have not changed).
  'cache-control': 'no-cache',
};

/**
 * GET /dashboard: the web dashboard (web/dashboard, built by `npm run build` into AEQ_DASHBOARD_DIR). Its routes are
 * public: server.ts registers them in a public scope. Without a build the page says how to make one (503), rather
 * than a blank 404.
 */
export async function registerDashboardRoutes(app: FastifyInstance, ctx: HttpContext): Promise<void> {
  const root = ctx.settings.dashboardDir;
  app.get(DASHBOARD_PATH, { schema: { hide: true } }, (_req, reply) => reply.redirect(`${DASHBOARD_PATH}/`, 302));
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    ctx.log.warn({ dashboardDir: root }, 'dashboard not built (npm run build); /dashboard answers 503');
    app.get(`${DASHBOARD_PATH}/*`, { schema: { hide: true } }, (_req, reply) =>
      reply
        .code(503)
        .headers(SECURITY_HEADERS)
        .type('text/plain; charset=utf-8')
        .send(`The dashboard is not built: run \`npm run build\` (looked in ${root}).\n`),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: `${DASHBOARD_PATH}/`,
    index: 'index.html',
    decorateReply: false,
    cacheControl: false,
    wildcard: false,
    setHeaders: (res) => {
      for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    },
  });
  // A file the build does not have: the error envelope, as public as the files beside it (the router prefers each
  // file's own route to this one).
  app.get(`${DASHBOARD_PATH}/*`, { schema: { hide: true } }, (_req, reply) => {
    const e = new RequestError('NOT_FOUND', 'No such file in the dashboard.');
    return reply.code(404).send({ success: false, error: errorObject(e, new Date(ctx.now())) });
  });
}
