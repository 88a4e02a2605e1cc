import type { FastifyInstance } from 'fastify';
import { RequestError } from '../../domain/request-errors.js';
import { TERMINAL_STATUSES } from '../../domain/task.js';
import { deliveryLogView } from '../../webhooks/delivery-log.js';
import type { HttpContext } from '../context.js';
import { deliveryLogSchema, errorEnvelopeSchema, idParamsSchema } from '../schemas.js';
import { liveTaskOr404 } from './task-lookup.js';

/** The webhook delivery log of a task: kept as long as the task (its retention). */
export function registerDeliveryRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.get<{ Params: { id: string } }>(
    '/v1/async/task/:id/deliveries',
    {
      schema: {
        summary: "A task's webhook delivery log",
        params: idParamsSchema,
        response: { 200: deliveryLogSchema, 401: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (req) => {
      const task = await liveTaskOr404(ctx, req.params.id);
      const row = await ctx.store.deliveryLog(task.id);
      return { success: true, taskId: task.id, webhook: row ? deliveryLogView(row) : null };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/v1/async/task/:id/deliveries',
    {
      schema: {
        summary: "Send a finished task's webhook again (a new webhook-id, due at once)",
        params: idParamsSchema,
        response: {
          202: deliveryLogSchema,
          401: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          422: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      const task = await liveTaskOr404(ctx, req.params.id);
      if (!TERMINAL_STATUSES.has(task.status)) throw new RequestError('TASK_NOT_TERMINAL', undefined, { id: task.id });
      const outcome = await ctx.store.requestRedelivery(task.id, ctx.now());
      if (outcome === 'none') throw new RequestError('NO_WEBHOOK', undefined, { id: task.id });
      if (outcome === 'busy') throw new RequestError('DELIVERY_IN_PROGRESS', undefined, { id: task.id });
      const row = await ctx.store.deliveryLog(task.id);
      return reply.code(202).send({ success: true, taskId: task.id, webhook: row ? deliveryLogView(row) : null });
    },
  );
}
