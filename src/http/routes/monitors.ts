import type { FastifyInstance } from 'fastify';
import { factsFor, savedMentions, trackBrands } from '../../analysis/visibility/index.js';
import type { Caller } from '../../domain/account.js';
import { dateTimeMs } from '../../domain/clock.js';
import { canonicalTaskType } from '../../domain/engine-catalog.js';
import {
  DEFAULT_SCHEDULE,
  MAX_TASKS_PER_RUN,
  type MonitorBrand,
  type MonitorRecord,
  type MonitorRunRecord,
  type MonitorSpec,
  type MonitorStatus,
  ScheduleError,
  checkSchedule,
  monitorView,
  nextSlot,
} from '../../domain/monitor.js';
import { RequestError, validationError } from '../../domain/request-errors.js';
import { newTaskId } from '../../domain/task-id.js';
import type { TaskType } from '../../domain/task-types.js';
import { newMonitorRun, submitMonitorRun } from '../../queue/monitor-runs.js';
import { checkEngineServes } from '../../submission/engine-check.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import { coercedQuery } from '../query-validator.js';
import {
  monitorAnswerSchema,
  monitorCreateSchema,
  monitorListQuerySchema,
  monitorListSchema,
  monitorMetricsQuerySchema,
  monitorMetricsSchema,
  monitorPatchSchema,
  monitorRunStartedSchema,
  monitorRunsQuerySchema,
  monitorRunsSchema,
} from '../monitor-schemas.js';
import { errorEnvelopeSchema, idParamsSchema } from '../schemas.js';
import { UUID_RE } from './task-lookup.js';

interface BrandBody {
  name: string;
  aliases?: string[];
  domains?: string[];
}

/** A create or edit body, as its schema lets it through. */
interface MonitorBody {
  name?: string;
  prompts?: string[];
  promptResearchTaskId?: string;
  engines?: string[];
  countries?: string[];
  brand?: BrandBody;
  competitors?: BrandBody[];
  schedule?: { cron: string; timezone?: string };
  status?: MonitorStatus;
}

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 404: errorEnvelopeSchema } as const;

/**
 * Monitors: `POST /v1/monitors`, `GET /v1/monitors`, `GET`, `PATCH`, `DELETE /v1/monitors/{id}`, its runs, figures,
 * and `POST /v1/monitors/{id}/runs` (run now).
 */
export function registerMonitorRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.post<{ Body: MonitorBody }>(
    '/v1/monitors',
    {
      schema: {
        summary: 'Create a visibility monitor',
        body: monitorCreateSchema,
        response: { 201: monitorAnswerSchema, 422: errorEnvelopeSchema, ...errors },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const now = ctx.now();
      const spec = await specFrom(ctx, caller, req.body, null);
      const monitor: MonitorRecord = {
        ...spec,
        id: newTaskId(now),
        accountId: caller.accountId,
        status: 'active',
        nextRunAt: nextSlot(spec.schedule, now),
        createdAt: now,
        updatedAt: now,
      };
      await ctx.store.insertMonitor(monitor);
      return reply.code(201).send({ success: true, monitor: monitorView(monitor) });
    },
  );

  app.get<{ Querystring: { limit: number; cursor?: string } }>(
    '/v1/monitors',
    {
      validatorCompiler: coercedQuery(monitorListQuerySchema),
      schema: {
        summary: "The account's monitors",
        querystring: monitorListQuerySchema,
        response: { 200: monitorListSchema, ...errors },
      },
    },
    async (req) => {
      const after = req.query.cursor ?? null;
      if (after !== null && !UUID_RE.test(after))
        throw validationError([{ field: 'cursor', message: 'must be the nextCursor of the previous page' }]);
      const rows = await ctx.store.listMonitors(callerOf(req).accountId, after, req.query.limit + 1);
      const page = rows.slice(0, req.query.limit);
      return {
        success: true,
        monitors: page.map(monitorView),
        nextCursor: rows.length > page.length ? (page.at(-1)?.id ?? null) : null,
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/v1/monitors/:id',
    { schema: { summary: 'A monitor', params: idParamsSchema, response: { 200: monitorAnswerSchema, ...errors } } },
    async (req) => ({ success: true, monitor: monitorView(await monitorOr404(ctx, req.params.id, callerOf(req))) }),
  );

  app.patch<{ Params: { id: string }; Body: MonitorBody }>(
    '/v1/monitors/:id',
    {
      schema: {
        summary: 'Edit, pause or resume a monitor',
        params: idParamsSchema,
        body: monitorPatchSchema,
        response: { 200: monitorAnswerSchema, 422: errorEnvelopeSchema, ...errors },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const current = await monitorOr404(ctx, req.params.id, caller);
      const now = ctx.now();
      const spec = await specFrom(ctx, caller, req.body, current);
      const status = req.body.status ?? current.status;
      const scheduleChanged = JSON.stringify(spec.schedule) !== JSON.stringify(current.schedule);
      // Resuming or a new schedule starts from the next slot (a paused time is not made up for).
      const nextRunAt =
        status === 'paused'
          ? null
          : current.status === 'paused' || scheduleChanged || current.nextRunAt === null
            ? nextSlot(spec.schedule, now)
            : current.nextRunAt;
      const monitor: MonitorRecord = { ...current, ...spec, status, nextRunAt, updatedAt: now };
      if (!(await ctx.store.updateMonitor(monitor))) throw notFound(req.params.id);
      return { success: true, monitor: monitorView(monitor) };
    },
  );
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
      const runs = await ctx.store.monitorRuns(m.id, caller.accountId, {
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
      const outcome = await ctx.store.startMonitorRun(run);
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
      const [fresh] = await ctx.store.monitorRuns(m.id, caller.accountId, {
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
      const runs = await ctx.store.monitorRunMetrics(m.id, caller.accountId, {
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

  app.delete<{ Params: { id: string } }>(
    '/v1/monitors/:id',
    { schema: { summary: 'Delete a monitor and its runs', params: idParamsSchema, response: errors } },
    async (req, reply) => {
      const caller = callerOf(req);
      const id = req.params.id;
      if (!UUID_RE.test(id) || !(await ctx.store.deleteMonitor(id.toLowerCase(), caller.accountId))) throw notFound(id);
      return reply.code(204).send();
    },
  );
}

function notFound(id: string): RequestError {
  return new RequestError('RESOURCE_NOT_FOUND', `No monitor with id ${JSON.stringify(id)}.`, { id });
}

/** The caller's monitor by the id of a path; another account's is not found either (404, never 403). */
async function monitorOr404(ctx: HttpContext, id: string, caller: Caller): Promise<MonitorRecord> {
  const m = UUID_RE.test(id) ? await ctx.store.getMonitor(id.toLowerCase(), caller.accountId) : undefined;
  if (!m) throw notFound(id);
  return m;
}

/** A monitor's definition from a body, over `base` when editing: names made canonical, limits and schedule checked. */
async function specFrom(
  ctx: HttpContext,
  caller: Caller,
  body: MonitorBody,
  base: MonitorSpec | null,
): Promise<MonitorSpec> {
  if (body.prompts && body.promptResearchTaskId)
    throw validationError([{ field: 'prompts', message: 'give prompts or promptResearchTaskId, not both' }]);
  let prompts = body.prompts ? unique(body.prompts.map((p) => p.trim()).filter((p) => p !== '')) : undefined;
  let promptResearchTaskId = base?.promptResearchTaskId ?? null;
  if (body.promptResearchTaskId) {
    prompts = await monitorSetOf(ctx, caller, body.promptResearchTaskId);
    promptResearchTaskId = body.promptResearchTaskId.toLowerCase();
  } else if (body.prompts) promptResearchTaskId = null;
  prompts ??= base?.prompts;
  if (!prompts || prompts.length === 0)
    throw validationError([{ field: 'prompts', message: 'give prompts or the id of a completed prompt research' }]);
  const engines = body.engines
    ? unique(body.engines.map((e) => canonicalTaskType(e) ?? e))
    : (base?.engines as string[]);
  // An engine that cannot serve at all would be left out of every run: refused here as a submit to it is.
  for (const e of body.engines ? engines : []) {
    const t = canonicalTaskType(e);
    if (t) checkEngineServes(ctx.config.engines[t], t);
  }
  const countries = body.countries ? unique(body.countries.map((c) => c.toUpperCase())) : (base?.countries ?? ['US']);
  const spec: MonitorSpec = {
    name: body.name ?? base?.name ?? '',
    prompts,
    engines,
    countries,
    brand: body.brand ? brandOf(body.brand) : (base?.brand as MonitorBrand),
    competitors: body.competitors ? body.competitors.map(brandOf) : (base?.competitors ?? []),
    // An edit that gives only the expression keeps the monitor's time zone.
    schedule: body.schedule
      ? { cron: body.schedule.cron.trim(), timezone: body.schedule.timezone ?? base?.schedule.timezone ?? 'UTC' }
      : (base?.schedule ?? { ...DEFAULT_SCHEDULE }),
    promptResearchTaskId,
  };
  try {
    checkSchedule(spec.schedule, ctx.now());
  } catch (e) {
    if (e instanceof ScheduleError) throw validationError([{ field: e.field, message: e.message }]);
    throw e;
  }
  // The contract's bound counts prompt-by-engine tasks (as prompt research's monitorSize does); each country is
  // the same set asked in another region.
  const n = spec.prompts.length * spec.engines.length;
  if (n > MAX_TASKS_PER_RUN)
    throw new RequestError(
      'VALIDATION_ERROR',
      `A run would ask ${n} prompt-by-engine tasks in each country; at most ${MAX_TASKS_PER_RUN}.`,
      [{ field: 'prompts', message: `${n} prompt-by-engine tasks, over ${MAX_TASKS_PER_RUN}` }],
      422,
    );
  return spec;
}

function brandOf(b: BrandBody): MonitorBrand {
  return { name: b.name.trim(), aliases: unique(b.aliases ?? []), domains: unique(b.domains ?? []) };
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** The prompts of a completed prompt research of the caller: its monitor set, in order. */
async function monitorSetOf(ctx: HttpContext, caller: Caller, id: string): Promise<string[]> {
  const task = UUID_RE.test(id)
    ? await ctx.store.getTask(id.toLowerCase(), ctx.now() - ctx.settings.retentionMs)
    : undefined;
  const set = (task?.result as { monitorSet?: { items?: Array<{ text?: unknown }> } } | null)?.monitorSet;
  const prompts = (set?.items ?? []).map((i) => i.text).filter((t): t is string => typeof t === 'string');
  if (
    !task ||
    task.accountId !== caller.accountId ||
    task.taskType !== 'PROMPT_RESEARCH' ||
    task.status !== 'COMPLETED' ||
    prompts.length === 0
  )
    throw validationError([
      {
        field: 'promptResearchTaskId',
        message: 'no completed prompt research with a monitor set under this id (unknown, expired or still running)',
      },
    ]);
  return prompts;
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
    const batch = await ctx.store.getBatch(run.batchId, run.accountId, 0);
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
