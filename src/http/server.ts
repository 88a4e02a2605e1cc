import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import swagger from '@fastify/swagger';
import { RequestError, errorObject } from '../domain/request-errors.js';
import { bearerMatches } from '../accounts/bearer.js';
import type { Caller } from '../domain/account.js';
import type { HttpContext } from './context.js';
import { readRestAfterAnswer } from './refused-body.js';
import { registerAnalysisRoutes } from './routes/analysis.js';
import { registerBatchRoutes } from './routes/batches.js';
import { registerDashboardRoutes } from './routes/dashboard.js';
import { registerInternalRoutes } from './routes/internal.js';
import { registerMonitorRunRoutes } from './routes/monitor-runs.js';
import { registerMonitorRoutes } from './routes/monitors.js';
import { registerAccountAdminRoutes } from './routes/internal-accounts.js';
import { registerMetricsRoute, registerOpsRoutes } from './routes/ops.js';
import { registerDeliveryRoutes } from './routes/deliveries.js';
import { registerTaskListRoutes } from './routes/task-list.js';
import { registerTaskRequestRoute } from './routes/task-request.js';
import { registerTaskRoutes } from './routes/tasks.js';
import { registerUsageRoutes } from './routes/usage.js';
import { registerWebhookSecretRoutes } from './routes/webhook-secret.js';
import { SHARED_SCHEMAS } from './schemas/task-response.js';
import { ajvToProblems } from './validation-details.js';
import { clientErrorHandler } from './client-errors.js';

/** Throws on malformed UTF-8; a leading byte-order mark is dropped. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const TASK_PATH = '/v1/async/task/';
const BATCH_PATH = '/v1/async/batch/';

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Who may call a route, in its config: `client` (the default: an account's key), `public` (no key: probes, the
 * OpenAPI document, the dashboard's files) or `internal` (the operator's token). The auth hook reads it from the
 * route the router matched, never from the URL's text, so no spelling of a path (percent-encoded letters, double
 * slashes, dot segments) reaches a route under another rule than its own.
 */
export type RouteAccess = 'public' | 'client' | 'internal';

declare module 'fastify' {
  interface FastifyRequest {
    /** The account (and key) the request's bearer token belongs to; set by the auth hook on every client route. */
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

/** Sets every route declared in a scope (and its children) to one access rule, whatever the route itself said. */
function setScopeAccess(scope: FastifyInstance, access: RouteAccess): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, access };
  });
}

/** Builds the Fastify app: JSON-schema validation, the error envelope, bearer auth, every route. */
export async function buildHttpServer(ctx: HttpContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    // Per-request log lines cost more than the request on the hot paths; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request either (pino builds one with its redaction on every request): the
    // few request-scoped lines (errors) carry the request id themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false } },
    return503OnClosing: true,
    clientErrorHandler: clientErrorHandler(ctx.now),
    // URLs the router refuses before any hook runs (over-long or badly encoded path parameters):
    // answer with the error envelope, after the same key check as every other route.
    // No route was matched, so nothing is reached: the key only decides between 401 and the envelope of the problem.
    frameworkErrors: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      const path = pathOf(req.url);
      void Promise.resolve(ctx.auth.authenticate(req.headers.authorization))
        .then(Boolean)
        .catch(() => false)
        .then((authorized) => frameworkError(authorized, path, err, req, reply));
    },
  });

  const frameworkError = (
    authorized: boolean,
    path: string,
    err: FastifyError,
    req: FastifyRequest,
    reply: FastifyReply,
  ) => {
    const base = [TASK_PATH, BATCH_PATH].find((p) => path.startsWith(p));
    const id = base ? safeDecode(path.slice(base.length)) : null;
    const e = !authorized
      ? new RequestError('MISSING_API_KEY')
      : id !== null && req.method === 'GET'
        ? new RequestError('RESOURCE_NOT_FOUND', 'No task or batch with this id (unknown or expired).', { id })
        : new RequestError('VALIDATION_ERROR', err.message, [{ field: '', message: 'the URL path is not valid' }]);
    void reply.code(e.status).send({ success: false, error: errorObject(e, new Date(ctx.now())) });
  };

  // Bodies are JSON whatever Content-Type says; anything unparsable is a 400 VALIDATION_ERROR.
  // Invalid UTF-8 is refused rather than silently turned into U+FFFD inside the client's text.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(
        new RequestError('VALIDATION_ERROR', 'The body is not valid UTF-8.', [
          { field: '', message: 'must be UTF-8 encoded JSON' },
        ]),
        undefined,
      );
      return;
    }
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(
        new RequestError('VALIDATION_ERROR', 'The body is not valid JSON.', [
          { field: '', message: 'must be a JSON document' },
        ]),
        undefined,
      );
    }
  });

  // Shared schemas (the analysis results) are listed in the document under their own names, not `def-N`.
  await app.register(swagger, {
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'aeq — asynchronous answer-engine query service',
        version: '1.0.0',
        description:
          'Every route but /health, /ready, /openapi.json and the dashboard (/dashboard/) takes ' +
          '`Authorization: Bearer <key>`. A key belongs to an account: ' +
          'the configured key (AEQ_API_KEY) to the default account, each key made with `aeq keys create` (or ' +
          'POST /internal/keys) to its own. Tasks (and their listing), batches, delivery logs, /stats and ' +
          "/v1/usage are those of the key's account; another account's id answers 404. Keys are `aeq_` and 32 " +
          'base64url characters, stored as SHA-256; a revoked or expired key answers 401 MISSING_API_KEY.',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: "An account's API key (aeq_…) or the configured AEQ_API_KEY (the default account)",
          },
        },
      },
      security: [{ bearer: [] }],
    },
  });

  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (req) => {
    // The matched route's rule; a URL no route matches (the not-found handler) needs a client key like any other.
    const access = req.routeOptions.config.access ?? 'client';
    if (access === 'public') return;
    if (access === 'internal') {
      // Internal routes exist only with a token (see below), so one is always there to compare with.
      const token = ctx.settings.internalToken;
      if (!token || !bearerMatches(req.headers.authorization, token))
        throw new RequestError('MISSING_API_KEY', 'Missing or invalid internal token.');
      return;
    }
    // Answered at once for the configured key and cached keys: no await on the hot path.
    const found = ctx.auth.authenticate(req.headers.authorization);
    const caller = found instanceof Promise ? await found : found;
    if (!caller) throw new RequestError('MISSING_API_KEY');
    req.caller = caller;
  });

  app.setErrorHandler((err: FastifyError | RequestError, req, reply) => {
    const now = new Date(ctx.now());
    let e: RequestError;
    if (err instanceof RequestError) e = err;
    else if (err.validation) {
      const problems = ajvToProblems(err.validation);
      const first = problems[0];
      e = new RequestError(
        'VALIDATION_ERROR',
        first ? `${first.field || 'body'}: ${first.message}` : undefined,
        problems,
      );
    } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      e = new RequestError(
        'PAYLOAD_TOO_LARGE',
        `The request body is over the ${req.routeOptions.bodyLimit ?? 1048576} byte limit of this endpoint.`,
      );
      // The answer at once, and the rest of the body read after it on a kept connection (see refused-body.ts).
      if (readRestAfterAnswer(req.raw)) reply.removeHeader('connection');
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      e = new RequestError('VALIDATION_ERROR', err.message, undefined, err.statusCode === 415 ? 400 : err.statusCode);
    } else {
      req.log.error({ err, reqId: req.id }, 'unhandled error');
      e = new RequestError('INTERNAL_ERROR');
    }
    return reply.code(e.status).send({ success: false, error: errorObject(e, now) });
  });

  app.setNotFoundHandler((req, reply) => {
    const e = new RequestError('NOT_FOUND', `No route ${req.method} ${pathOf(req.url)}.`);
    return reply.code(404).send({ success: false, error: errorObject(e, new Date(ctx.now())) });
  });

  // The analysis results are shared schemas only of the scope whose answers carry them (polling, the listing):
  // Fastify hands a scope's shared schemas to the compiler of every response schema in it, which checks each of them
  // again; shared at the root they cost the API's start about 70 ms of CPU more (measured: 250 against 180 ms, the
  // start without them 120 ms). The OpenAPI document lists them all the same.
  await app.register(async (scope) => {
    for (const schema of SHARED_SCHEMAS) scope.addSchema(schema);
    registerTaskRoutes(scope, ctx);
    registerTaskListRoutes(scope, ctx);
  });
  registerTaskRequestRoute(app, ctx);
  registerBatchRoutes(app, ctx);
  registerDeliveryRoutes(app, ctx);
  registerAnalysisRoutes(app, ctx);
  registerOpsRoutes(app, ctx);
  registerUsageRoutes(app, ctx);
  registerWebhookSecretRoutes(app, ctx);
  registerMonitorRoutes(app, ctx);
  registerMonitorRunRoutes(app, ctx);
  // The operator's routes and the metrics exist only with an internal token: without one there is nothing to reach.
  if (ctx.settings.internalToken) {
    await app.register(async (scope) => {
      setScopeAccess(scope, 'internal');
      registerInternalRoutes(scope, ctx);
      registerAccountAdminRoutes(scope, ctx);
      registerMetricsRoute(scope, ctx);
    });
  } else {
    // Without a token they do not exist: one route answers 404 for all of them, to anyone, with the reason.
    await app.register(async (scope) => {
      setScopeAccess(scope, 'public');
      const absent = async (req: FastifyRequest, reply: FastifyReply) => {
        const e = new RequestError('NOT_FOUND', `No route ${req.method} ${pathOf(req.url)}: set AEQ_INTERNAL_TOKEN.`);
        return reply.code(404).send({ success: false, error: errorObject(e, new Date(ctx.now())) });
      };
      scope.all('/internal/*', { schema: { hide: true } }, absent);
      scope.all('/metrics', { schema: { hide: true } }, absent);
    });
  }
  await app.register(async (scope) => {
    setScopeAccess(scope, 'public');
    await registerDashboardRoutes(scope, ctx);
  });
  app.get('/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () => app.swagger());
  // The root points where a person or a program should go next: a browser to the dashboard, anything else to a map.
  app.get('/', { schema: { hide: true }, config: { access: 'public' } }, async (req, reply) => {
    if ((req.headers.accept ?? '').includes('text/html')) return reply.redirect('/dashboard/', 302);
    return {
      service: 'aeq',
      dashboard: '/dashboard/',
      openapi: '/openapi.json',
      health: '/health',
      authentication: 'Authorization: Bearer <API key> on /v1/*, /stats and /capacity',
    };
  });
  return app;
}
