import type { FastifyInstance } from 'fastify';
import { factsFor, savedMentions, trackBrands } from '../../analysis/visibility/index.js';
import { dateTimeMs } from '../../domain/clock.js';
import type { MonitorRunRecord } from '../../domain/monitor.js';
import { RequestError, validationError } from '../../domain/request-errors.js';
import type { TaskType } from '../../domain/task-types.js';
import { newMonitorRun, submitMonitorRun } from '../../queue/monitor-runs.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import {
  monitorMetricsQuerySchema,
  monitorMetricsSchema,
  monitorRunStartedSchema,
  monitorRunsQuerySchema,
  monitorRunsSchema,
} from '../monitor-schemas.js';
import { coercedQuery } from '../query-validator.js';
import { errorEnvelopeSchema, idParamsSchema } from '../schemas.js';
import { monitorOr404, notFound } from './monitors.js';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 404: errorEnvelopeSchema } as const;

/**
 * A monitor's runs: `GET /v1/monitors/{id}/runs` (newest first, with progress and optionally the saved answers),
 * `POST /v1/monitors/{id}/runs` (run now) and `GET /v1/monitors/{id}/metrics` (the figures over time).
 */
export function registerMonitorRunRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.get<{ Params: { id: string }; Querystring: { limit: number; include?: 'results' } }>(
    '/v1/monitors/:id/runs',
    {
      validatorCompiler: coercedQuery(monitorRunsQuerySchema),
      schema: {
        summary: "A monitor's runs with their progress, newest first",
        params: idParamsSchema,
        querystring: monitorRunsQuerySchema,
        response: { 200: monitorRunsSchema, ...errors },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const m = await monitorOr404(ctx, req.params.id, caller);
      const withResults = req.query.include === 'results';
      const runs = await ctx.store.monitors.runs({
        monitorId: m.id,
        accountId: caller.accountId,
        limit: req.query.limit,
        results: withResults,
      });
      const views = [];
      for (const run of runs) views.push(await runView(ctx, run, withResults));
      return { success: true, runs: views };
    },
  );
  app.post<{ Params: { id: string } }>(
    '/v1/monitors/:id/runs',
    {
      schema: {
        summary: 'Run a monitor now, outside its schedule',
        description:
          'Starts a run at once, made and submitted as a scheduled one (same tasks, size bound and usage). 409 ' +
          'MONITOR_RUN_IN_PROGRESS while a run of the monitor is starting or running. A paused monitor runs too ' +
          '(pausing stops its schedule); the schedule is left as it is.',
        params: idParamsSchema,
        response: { 202: monitorRunStartedSchema, 409: errorEnvelopeSchema, ...errors },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const m = await monitorOr404(ctx, req.params.id, caller);
      const now = ctx.now();
      const run = newMonitorRun(m, now, now, 'manual');
      const outcome = await ctx.store.monitors.startRun(run);
      if (outcome === 'gone') throw notFound(req.params.id);
      if (outcome === 'in-progress') throw new RequestError('MONITOR_RUN_IN_PROGRESS', undefined, { monitorId: m.id });
      try {
        const made = await submitMonitorRun(
          {
            store: ctx.store,
            submission: { config: ctx.config, pools: ctx.pools, now: ctx.now },
            retentionMs: ctx.settings.retentionMs,
            now: ctx.now,
            log: ctx.log,
          },
          run,
        );
        for (const type of new Set<TaskType>(made.map((t) => t.taskType))) ctx.notify(type);
      } catch (e) {
        // The run stays `starting`: a worker's scheduler pass submits it (the same batch id, made once).
        req.log.error({ err: e, runId: run.id }, 'monitor run not submitted at once');
      }
      const [fresh] = await ctx.store.monitors.runs({
        monitorId: m.id,
        accountId: caller.accountId,
        from: run.slotAt,
        to: run.slotAt + 1,
        limit: 1,
      });
      return reply.code(202).send({ success: true, run: await runView(ctx, fresh ?? run, false) });
    },
  );

  app.get<{ Params: { id: string }; Querystring: { from?: string; to?: string } }>(
    '/v1/monitors/:id/metrics',
    {
      validatorCompiler: coercedQuery(monitorMetricsQuerySchema),
      schema: {
        summary: "A monitor's visibility figures over time, per engine and country (docs/analysis.md §6)",
        params: idParamsSchema,
        querystring: monitorMetricsQuerySchema,
        response: { 200: monitorMetricsSchema, ...errors },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const m = await monitorOr404(ctx, req.params.id, caller);
      const from = timeOf(req.query.from, 'from');
      const to = timeOf(req.query.to, 'to');
      const runs = await ctx.store.monitors.runMetrics({
        monitorId: m.id,
        accountId: caller.accountId,
        ...(from === undefined ? {} : { from }),
        ...(to === undefined ? {} : { to }),
      });
      const series = [];
      for (const run of runs)
        for (const [key, figures] of Object.entries(run.metrics)) {
          const [engine, country] = key.split('/');
          series.push({
            runId: run.id,
            slotAt: new Date(run.slotAt).toISOString(),
            engine,
            country: country === '-' ? null : country,
            ...(figures as Record<string, unknown>),
          });
        }
      return { success: true, monitorId: m.id, series };
    },
  );
}

/**
 * A run as the API shows it: its progress from its batch while it runs, from the counts of its saved results once
 * done (the results themselves are read only when asked for).
 */
async function runView(ctx: HttpContext, run: MonitorRunRecord, withResults: boolean) {
  let progress: { total: number; done: number; completed: number; failed: number };
  if (run.status === 'completed') {
    const { completed, failed } = run.counts ?? { completed: 0, failed: 0 };
    progress = { total: run.tasks, done: completed + failed, completed, failed };
  } else {
    const batch = await ctx.store.batches.get({ id: run.batchId, accountId: run.accountId, notBefore: 0 });
    const c = batch?.counts;
    progress = {
      total: run.tasks,
      done: c ? c.COMPLETED + c.FAILED : 0,
      completed: c?.COMPLETED ?? 0,
      failed: c?.FAILED ?? 0,
    };
  }
  return {
    id: run.id,
    slotAt: new Date(run.slotAt).toISOString(),
    status: run.status,
    trigger: run.trigger,
    batchId: run.batchId,
    tasks: run.tasks,
    progress,
    createdAt: new Date(run.createdAt).toISOString(),
    completedAt: run.completedAt === null ? null : new Date(run.completedAt).toISOString(),
    ...(withResults ? { results: withMentions(run) } : {}),
  };
}

/**
 * A run's saved results, each with where its answer names the tracked brands (`mentions`: offsets in `text`, the
 * brand and its role, as the figures counted them: docs/analysis.md §6.1) and the brand's rank by first mention
 * (`position`). Saved with the run when it ended; computed here only for runs saved before that.
 */
function withMentions(run: MonitorRunRecord) {
  const results = run.results ?? [];
  if (results.every((r) => r.mentions !== undefined)) return results;
  const tracked = trackBrands(run.spec.brand, run.spec.competitors);
  return results.map((r) => {
    if (r.mentions !== undefined) return r;
    return { ...r, ...savedMentions(factsFor({ text: r.text, sources: [] }, tracked)) };
  });
}

/** An optional RFC 3339 time of the query, or 400 on the field. */
function timeOf(text: string | undefined, field: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = dateTimeMs(text);
  if (ms === null)
    throw validationError([{ field, message: 'must be an RFC 3339 date-time, e.g. 2026-11-01T00:00:00Z' }]);
  return ms;
}
