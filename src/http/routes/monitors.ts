import type { FastifyInstance } from 'fastify';
import { monitorView } from '../../domain/monitor.js';
import { validationError } from '../../domain/request-errors.js';
import { UUID_RE } from '../../domain/task-id.js';
import {
  addCompetitor,
  createMonitor,
  deleteMonitor,
  editMonitor,
  type MonitorBody,
  type MonitorDeps,
  monitorOr404,
} from '../../submission/monitors.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import { coercedQuery } from '../query-validator.js';
import {
  competitorBodySchema,
  monitorAnswerSchema,
  monitorCreateSchema,
  monitorListQuerySchema,
  monitorListSchema,
  monitorPatchSchema,
} from '../schemas/monitors.js';
import { errorEnvelopeSchema, idParamsSchema } from '../schemas/common.js';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 404: errorEnvelopeSchema } as const;

/**
 * Monitors: `POST /v1/monitors`, `GET /v1/monitors`, and `GET`, `PATCH`, `DELETE /v1/monitors/{id}` (their runs and
 * figures: monitor-runs.ts).
 */
export function registerMonitorRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const deps: MonitorDeps = {
    store: ctx.store,
    config: ctx.config,
    retentionMs: ctx.settings.retentionMs,
    now: ctx.now,
  };
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
      const monitor = await createMonitor(deps, callerOf(req), req.body);
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
    async (req) => ({ success: true, monitor: monitorView(await monitorOr404(deps, req.params.id, callerOf(req))) }),
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
      const monitor = await editMonitor(deps, callerOf(req), req.params.id, req.body);
      return { success: true, monitor: monitorView(monitor) };
    },
  );
  app.post<{ Params: { id: string }; Body: { name: string; aliases?: string[]; domains?: string[] } }>(
    '/v1/monitors/:id/competitors',
    {
      schema: {
        summary: 'Track one more competitor, e.g. a name its answers named (GET /v1/monitors/{id}/discovered)',
        description:
          "Adds the brand to the monitor's competitors from its next run. 409 COMPETITOR_EXISTS when the monitor " +
          'already tracks the name or an alias; 422 over 20 competitors.',
        params: idParamsSchema,
        body: competitorBodySchema,
        response: { 201: monitorAnswerSchema, 409: errorEnvelopeSchema, 422: errorEnvelopeSchema, ...errors },
      },
    },
    async (req, reply) => {
      const monitor = await addCompetitor(deps, callerOf(req), req.params.id, req.body);
      return reply.code(201).send({ success: true, monitor: monitorView(monitor) });
    },
  );
  app.delete<{ Params: { id: string } }>(
    '/v1/monitors/:id',
    { schema: { summary: 'Delete a monitor and its runs', params: idParamsSchema, response: errors } },
    async (req, reply) => {
      await deleteMonitor(deps, req.params.id, callerOf(req));
      return reply.code(204).send();
    },
  );
}
