import type { FastifyInstance } from 'fastify';
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
}
