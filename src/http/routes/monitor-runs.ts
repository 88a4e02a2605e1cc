import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dateTimeMs } from '../../domain/clock.js';
import { validationError } from '../../domain/request-errors.js';
import { monitorSignals, promptTexts, SIGNAL_FDR, SIGNAL_READ_RUNS } from '../../analysis/visibility/signals.js';
import { DISCOVERY_METHOD_VERSION } from '../../analysis/visibility/discovered-names.js';
import { hostWithin, ownDomainHost, trackBrands } from '../../analysis/visibility/index.js';
import { discoveredOver } from '../../queue/monitor-discovered.js';
import { metricsCsv, metricsSeries } from '../../queue/monitor-metrics.js';
import { monitorRunView, runMonitorNow } from '../../queue/monitor-runs.js';
import { monitorOr404 } from '../../submission/monitors.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import {
  monitorMetricsQuerySchema,
  monitorDiscoveredSchema,
  monitorMetricsSchema,
  monitorSignalsSchema,
  monitorRunStartedSchema,
  monitorRunsQuerySchema,
  monitorRunsSchema,
} from '../schemas/monitors.js';
import { coercedQuery } from '../query-validator.js';
import { errorEnvelopeSchema, idParamsSchema } from '../schemas/common.js';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 404: errorEnvelopeSchema } as const;
/** Runs the discovered names are pooled over: the latest of the window. */
const DISCOVERED_RUNS = 30;

/**
 * A monitor's runs: `GET /v1/monitors/{id}/runs` (newest first, with progress and optionally the saved answers),
 * `POST /v1/monitors/{id}/runs` (run now), `GET /v1/monitors/{id}/metrics` (the figures over time, with their
 * intervals) and `GET /v1/monitors/{id}/metrics.csv` (the same as CSV).
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
      for (const run of runs) views.push(await monitorRunView(ctx.store, run, withResults));
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
      const m = await monitorOr404(ctx, req.params.id, callerOf(req));
      const run = await runMonitorNow(
        {
          store: ctx.store,
          submission: { config: ctx.config, pools: ctx.pools, now: ctx.now },
          retentionMs: ctx.settings.retentionMs,
          sampleSpacingMs: ctx.settings.monitorSampleSpacingMs,
          now: ctx.now,
          log: ctx.log,
        },
        m,
        req.params.id,
        ctx.notify,
      );
      return reply.code(202).send({ success: true, run: await monitorRunView(ctx.store, run, false) });
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
      const { monitorId, series } = await seriesOf(ctx, req);
      return { success: true, monitorId, series };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { from?: string; to?: string } }>(
    '/v1/monitors/:id/discovered',
    {
      validatorCompiler: coercedQuery(monitorMetricsQuerySchema),
      schema: {
        summary: "Brands and domains the monitor's answers name or cite that it does not track (docs/analysis.md §6.8)",
        description:
          'Over the latest 30 runs of the window: each name with the answers naming it, its share, position, the ' +
          'engines and its share per run; each uncited-by-a-tracked-brand domain likewise. Names are found without ' +
          'a model and are suggestions (their measured precision is in docs/analysis.md §6.8); track one with ' +
          '`POST /v1/monitors/{id}/competitors`.',
        params: idParamsSchema,
        querystring: monitorMetricsQuerySchema,
        response: { 200: monitorDiscoveredSchema, ...errors },
      },
    },
    async (req) => {
      const { m, runs } = await runsOf(ctx, req, { latest: DISCOVERED_RUNS });
      const tracked = trackBrands(m.brand, m.competitors);
      const owned = [m.brand, ...m.competitors].flatMap((b) => b.domains.map(ownDomainHost));
      const isTracked = {
        name: (name: string) => tracked.some((b) => b.find(name).length > 0),
        domain: (domain: string) => owned.some((d) => hostWithin(domain, d) || hostWithin(d, domain)),
      };
      return {
        success: true,
        monitorId: m.id,
        methodVersion: DISCOVERY_METHOD_VERSION,
        ...discoveredOver(runs, isTracked),
      };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { from?: string; to?: string } }>(
    '/v1/monitors/:id/signals',
    {
      validatorCompiler: coercedQuery(monitorMetricsQuerySchema),
      schema: {
        summary: "A monitor's signals: changes of its figures that held against their baseline (docs/analysis.md §6.7)",
        description:
          'Each run is tested against its last 7 runs (at least 3), every figure of every tracked brand, engine and ' +
          'country, with the false discovery rate held at 5% over the figures of the run. Newest first; `from` ' +
          'and `to` bound the runs (a signal is listed if it still held at or after `from`).',
        params: idParamsSchema,
        querystring: monitorMetricsQuerySchema,
        response: { 200: monitorSignalsSchema, ...errors },
      },
    },
    async (req) => {
      const { monitorId, signals } = await signalsOf(ctx, req);
      return { success: true, monitorId, fdr: SIGNAL_FDR, signals };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { from?: string; to?: string } }>(
    '/v1/monitors/:id/metrics.csv',
    {
      validatorCompiler: coercedQuery(monitorMetricsQuerySchema),
      schema: {
        summary: "A monitor's figures with their 95% intervals as CSV, one row per figure, brand or domain",
        description:
          'The series of `/metrics` in long form (columns in docs/analysis.md §6.6); text cells that a spreadsheet ' +
          'would read as a formula get a leading apostrophe.',
        params: idParamsSchema,
        querystring: monitorMetricsQuerySchema,
        produces: ['text/csv'],
        response: { 200: { type: 'string', description: 'CSV (RFC 4180), UTF-8' }, ...errors },
      },
    },
    async (req, reply) => {
      const { monitorId, series } = await seriesOf(ctx, req);
      // Streamed row by row: a long history is never one string in memory.
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="monitor-${monitorId}-metrics.csv"`)
        .send(Readable.from(metricsCsv(series)));
    },
  );
}

/** The caller's monitor's signals that held at some time in the query's window (baselines read from before it). */
async function signalsOf(ctx: HttpContext, req: WindowRequest) {
  // The latest runs before `to` only (SIGNAL_READ_RUNS), `from` included: the runs before it are baselines. A read
  // never walks a monitor's whole history.
  const { m, caller, from, runs } = await runsOf(ctx, req, { latest: SIGNAL_READ_RUNS, baselines: true });
  const held = monitorSignals(runs).filter((s) => from === undefined || Date.parse(s.lastSeen.slotAt) >= from);
  // Their prompts' text, from the runs that first saw them (the stored figures keep each prompt's index): one read
  // of those runs' definitions, without their answers.
  const firsts = held.map((s) => Date.parse(s.firstSeen.slotAt));
  const texts = new Map<string, readonly string[]>();
  if (firsts.length > 0)
    for (const run of await ctx.store.monitors.runs({
      monitorId: m.id,
      accountId: caller.accountId,
      from: Math.min(...firsts),
      to: Math.max(...firsts) + 1,
      limit: SIGNAL_READ_RUNS,
    }))
      texts.set(run.id, run.spec.prompts);
  return { monitorId: m.id, signals: promptTexts(held, (id) => texts.get(id)) };
}

/** The caller's monitor's figures in the query's window, or 404 / 400. */
async function seriesOf(ctx: HttpContext, req: WindowRequest) {
  const { m, runs } = await runsOf(ctx, req, {});
  return { monitorId: m.id, series: metricsSeries(runs) };
}

type WindowRequest = FastifyRequest<{ Params: { id: string }; Querystring: { from?: string; to?: string } }>;

/**
 * The caller's monitor (404 when not theirs) and its completed runs' figures in the query's window (400 on a bad
 * time): the latest `latest` of them when given; with `baselines`, the runs before `from` too.
 */
async function runsOf(ctx: HttpContext, req: WindowRequest, o: { latest?: number; baselines?: boolean }) {
  const caller = callerOf(req);
  const m = await monitorOr404(ctx, req.params.id, caller);
  const from = timeOf(req.query.from, 'from');
  const to = timeOf(req.query.to, 'to');
  const runs = await ctx.store.monitors.runMetrics({
    monitorId: m.id,
    accountId: caller.accountId,
    ...(from === undefined || o.baselines ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    ...(o.latest === undefined ? {} : { latest: o.latest }),
  });
  return { m, caller, from, runs };
}

/** An optional RFC 3339 time of the query, or 400 on the field. */
function timeOf(text: string | undefined, field: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = dateTimeMs(text);
  if (ms === null)
    throw validationError([{ field, message: 'must be an RFC 3339 date-time, e.g. 2026-11-01T00:00:00Z' }]);
  return ms;
}
