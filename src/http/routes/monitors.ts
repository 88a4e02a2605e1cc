import type { FastifyInstance } from 'fastify';
import type { Caller } from '../../domain/account.js';
import { canonicalTaskType } from '../../domain/engine-catalog.js';
import {
  DEFAULT_SCHEDULE,
  MAX_TASKS_PER_RUN,
  type MonitorBrand,
  type MonitorRecord,
  type MonitorSpec,
  type MonitorStatus,
  ScheduleError,
  checkSchedule,
  monitorView,
  nextSlot,
} from '../../domain/monitor.js';
import { RequestError, validationError } from '../../domain/request-errors.js';
import { newTaskId } from '../../domain/task-id.js';
import { checkEngineServes } from '../../submission/engine-check.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import { coercedQuery } from '../query-validator.js';
import {
  monitorAnswerSchema,
  monitorCreateSchema,
  monitorListQuerySchema,
  monitorListSchema,
  monitorPatchSchema,
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
 * Monitors: `POST /v1/monitors`, `GET /v1/monitors`, and `GET`, `PATCH`, `DELETE /v1/monitors/{id}` (their runs and
 * figures: monitor-runs.ts).
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
      await ctx.store.monitors.insert(monitor);
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
      const rows = await ctx.store.monitors.list({
        accountId: callerOf(req).accountId,
        after,
        limit: req.query.limit + 1,
      });
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
      if (!(await ctx.store.monitors.update(monitor))) throw notFound(req.params.id);
      return { success: true, monitor: monitorView(monitor) };
    },
  );
  app.delete<{ Params: { id: string } }>(
    '/v1/monitors/:id',
    { schema: { summary: 'Delete a monitor and its runs', params: idParamsSchema, response: errors } },
    async (req, reply) => {
      const caller = callerOf(req);
      const id = req.params.id;
      if (
        !UUID_RE.test(id) ||
        !(await ctx.store.monitors.delete({ id: id.toLowerCase(), accountId: caller.accountId }))
      )
        throw notFound(id);
      return reply.code(204).send();
    },
  );
}

export function notFound(id: string): RequestError {
  return new RequestError('RESOURCE_NOT_FOUND', `No monitor with id ${JSON.stringify(id)}.`, { id });
}

/** The caller's monitor by the id of a path; another account's is not found either (404, never 403). */
export async function monitorOr404(ctx: HttpContext, id: string, caller: Caller): Promise<MonitorRecord> {
  const m = UUID_RE.test(id)
    ? await ctx.store.monitors.get({ id: id.toLowerCase(), accountId: caller.accountId })
    : undefined;
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
    ? await ctx.store.tasks.get({ id: id.toLowerCase(), notBefore: ctx.now() - ctx.settings.retentionMs })
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
