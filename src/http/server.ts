import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import swagger from '@fastify/swagger';
import { RequestError } from '../domain/request-errors.js';
import { bearerMatches } from '../accounts/bearer.js';
import type { Caller } from '../domain/account.js';
import type { HttpContext } from './context.js';
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
import { registerExportRoutes } from './routes/export.js';
import { registerTaskRequestRoute } from './routes/task-request.js';
import { registerTaskArtifactRoutes } from './routes/task-artifacts.js';
import { registerTaskRoutes } from './routes/tasks.js';
import { registerUsageRoutes } from './routes/usage.js';
import { registerWebhookSecretRoutes } from './routes/webhook-secret.js';
import { SHARED_SCHEMAS } from './schemas/task-response.js';
import { clientErrorHandler } from './client-errors.js';
import { lazySerializers } from './lazy-serializers.js';
import { errorHandler, frameworkErrorAnswer, notFoundHandler } from './error-handler.js';

/** Throws on malformed UTF-8; a leading byte-order mark is dropped. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Who may call a route, in its config: `client` (the default: an account's key), `public` (no key: probes, the
 * OpenAPI document, the dashboard's files) or `internal` (the operator's token). The auth hook reads it from the
 * route the router matched, never from the URL's text, so no spelling of a path (percent-encoded letters, double
 * slashes, dot segments) reaches a route under another rule than its own.
 */
type RouteAccess = 'public' | 'client' | 'internal';

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

/** Builds the Fastify app: JSON-schema validation, the error envelope (error-handler.ts), bearer auth, every route. */
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
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
    return503OnClosing: true,
    clientErrorHandler: clientErrorHandler(ctx.now),
    // URLs the router refuses before any hook runs: the error envelope, after the same key check as every route.
    frameworkErrors: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      void Promise.resolve(ctx.auth.authenticate(req.headers.authorization))
        .then(Boolean)
        .catch(() => false)
        .then((authorized) => frameworkErrorAnswer(authorized, err, req, reply, ctx.now()));
    },
  });

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

  app.setErrorHandler(errorHandler(ctx.now));
  app.setNotFoundHandler(notFoundHandler(ctx.now));

  // The analysis results are shared schemas only of the scope whose answers carry them (polling, the listing):
  // Fastify hands a scope's shared schemas to the compiler of every response schema in it, which checks each of them
  // again; shared at the root they cost the API's start about 70 ms of CPU more (measured: 250 against 180 ms, the
  // start without them 120 ms). The OpenAPI document lists them all the same.
  await app.register(async (scope) => {
    for (const schema of SHARED_SCHEMAS) scope.addSchema(schema);
    registerTaskRoutes(scope, ctx);
    registerTaskListRoutes(scope, ctx);
    registerExportRoutes(scope, ctx);
  });
  registerTaskRequestRoute(app, ctx);
  registerTaskArtifactRoutes(app, ctx);
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
      const absent = notFoundHandler(ctx.now, 'set AEQ_INTERNAL_TOKEN');
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
