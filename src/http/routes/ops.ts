import type { FastifyInstance } from 'fastify';
import type {} from '@fastify/swagger';
import { RequestError } from '../../domain/request-errors.js';
import { leaseKind } from '../../config/account-kind.js';
import { ALL_TASK_TYPES, ENGINE_CATALOG } from '../../domain/engine-catalog.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';

/** Liveness, readiness, queue statistics, capacity and Prometheus metrics. */
export function registerOpsRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.get(
    '/health',
    { schema: { summary: 'Liveness probe', security: [] }, config: { access: 'public' } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/ready',
    {
      schema: { summary: 'Readiness probe: 200 when the store answers and migrations are applied', security: [] },
      config: { access: 'public' },
    },
    async () => {
      if (await ctx.store.isReady()) return { status: 'ready', store: ctx.store.kind };
      throw new RequestError('NOT_READY', 'The store is not reachable or not migrated yet.');
    },
  );

  app.get(
    '/stats',
    { schema: { summary: "The caller's account: its tasks by status and engine, its webhook deliveries" } },
    async (req) => {
      const s = await ctx.store.figures.stats({
        notBefore: ctx.now() - ctx.settings.retentionMs,
        accountId: callerOf(req).accountId,
      });
      return { tasks: s.tasks, byEngine: s.byEngine, webhooks: s.webhooks };
    },
  );

  app.get('/capacity', { schema: { summary: 'Serving mode and region serveability per engine' } }, async () => {
    const depth = await ctx.store.figures.queuedAndRunning({ notBefore: ctx.now() - ctx.settings.retentionMs });
    const countries = ctx.pools.knownCountries();
    const out: Record<string, unknown> = {};
    for (const t of ALL_TASK_TYPES) {
      const e = ctx.config.engines[t];
      // The accounts of the kind the engine's default surface leases (an explicit `surface` may lease the other).
      const kind = leaseKind(t, e, null);
      const perCountry: Record<string, unknown> = {};
      for (const c of countries) {
        if (e.neverServe.includes(c)) continue;
        const region = ctx.pools.regionCapacity(t, c, kind);
        perCountry[c] = e.unavailable ? { ...region, serveable: false } : region;
      }
      out[t.toLowerCase()] = {
        mode: e.mode,
        transport: e.transport ?? 'http',
        // Present only when the engine cannot serve at all (switched off, no credentials, no browser), with the
        // reason and its kind; submissions to it are refused with ENGINE_UNAVAILABLE.
        ...(e.unavailable
          ? { unavailable: e.unavailable, unavailableReason: e.unavailableCause ?? 'SWITCHED_OFF' }
          : {}),
        paused: e.paused,
        concurrency: e.concurrency,
        inFlight: depth[t]?.processing ?? 0,
        queued: depth[t]?.queued ?? 0,
        regionBound: ENGINE_CATALOG[t].regionBound,
        neverServe: e.neverServe,
        countries: perCountry,
      };
    }
    return out;
  });
}

/**
 * The queue-depth gauge is a store aggregate over every account's tasks: a scrape reads the last one taken, and a
 * new one is taken (once, however many scrapes wait for it) only when it is older than this. A scrape flood costs
 * the store at most one aggregate per interval.
 */
const QUEUE_DEPTH_MAX_AGE_MS = 5_000;

/**
 * GET /metrics: Prometheus text, behind the internal token (registered only with one). The counters name accounts
 * (credits per account) and engines' failures: the operator's view, not a tenant's. Prometheus scrapes it with
 * `authorization: {credentials: <AEQ_INTERNAL_TOKEN>}` (docs/operations.md).
 */
export function registerMetricsRoute(app: FastifyInstance, ctx: HttpContext): void {
  let takenAt = -Infinity;
  let taking: Promise<void> | null = null;
  const refreshQueueDepth = async (): Promise<void> => {
    const depth = await ctx.store.figures.stats({ notBefore: ctx.now() - ctx.settings.retentionMs });
    ctx.metrics.queueDepth.reset();
    for (const [engine, counts] of Object.entries(depth.byEngine)) {
      for (const [status, n] of Object.entries(counts)) ctx.metrics.queueDepth.set({ engine, status }, n);
    }
    takenAt = Date.now();
  };
  app.get('/metrics', { schema: { summary: 'Prometheus metrics', hide: true } }, async (_req, reply) => {
    if (Date.now() - takenAt > QUEUE_DEPTH_MAX_AGE_MS) {
      taking ??= refreshQueueDepth().finally(() => {
        taking = null;
      });
      await taking;
    }
    return reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics());
  });
}
