import type { FastifyInstance } from 'fastify';
import { isoOrNull } from '../../domain/clock.js';
import { RequestError } from '../../domain/request-errors.js';
import { taskMetadata } from '../../domain/task-view.js';
import { targetHostOf } from '../../domain/webhook-target.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import { errorEnvelopeSchema, idParamsSchema } from '../schemas/common.js';
import { taskRequestSchema } from '../schemas/tasks.js';
import { liveTaskOr404 } from './task-lookup.js';

/**
 * GET /v1/async/task/{id}/request: what a task asked (its payload as submitted, its region, where its webhook goes,
 * its attempts), which polling leaves out. Apart from polling so that the poll, the hot read, stays as it is.
 */
export function registerTaskRequestRoute(app: FastifyInstance, ctx: HttpContext): void {
  app.get<{ Params: { id: string } }>(
    '/v1/async/task/:id/request',
    {
      schema: {
        summary: 'What a task asked: its payload, region, webhook host and attempts',
        params: idParamsSchema,
        response: { 200: taskRequestSchema, 401: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (req) => {
      const polled = await liveTaskOr404(ctx, req.params.id, callerOf(req));
      const task = await ctx.store.tasks.get({ id: polled.id, notBefore: ctx.now() - ctx.settings.retentionMs });
      // Swept between the two reads: as unknown as the first read would have found it a moment later.
      if (!task)
        throw new RequestError('RESOURCE_NOT_FOUND', `No task with id ${JSON.stringify(req.params.id)} (expired).`, {
          id: req.params.id,
        });
      return {
        success: true,
        task: taskMetadata(task),
        request: {
          payload: task.payload,
          country: task.country,
          webhook: task.webhookUrl ? { targetHost: targetHostOf(task.webhookUrl) } : null,
          attempts: task.attempts,
          maxAttempts: task.maxAttempts,
          updatedAt: new Date(task.updatedAt).toISOString(),
          finishedAt: isoOrNull(task.finishedAt),
        },
      };
    },
  );
}
