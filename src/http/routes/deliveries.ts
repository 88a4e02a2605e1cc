import type { FastifyInstance } from 'fastify';
import type { Caller } from '../../domain/account.js';
import { RequestError } from '../../domain/request-errors.js';
import { callerOf } from '../caller.js';
import { TERMINAL_STATUSES } from '../../domain/task.js';
import { deliveryLogView } from '../../webhooks/delivery-log.js';
import type { HttpContext } from '../context.js';
import { errorEnvelopeSchema, idParamsSchema } from '../schemas/common.js';
import { batchDeliveryLogSchema, deliveryLogSchema } from '../schemas/deliveries.js';
import { liveBatchOr404 } from './batches.js';
import { liveTaskOr404 } from './task-lookup.js';

/** What the delivery routes of a task or of a batch need to know about the one a path names. */
interface Owner {
  /** `taskId` or `batchId`, as the answer names the owner. */
  idField: 'taskId' | 'batchId';
  path: string;
  noun: 'task' | 'batch';
  schema: typeof deliveryLogSchema | typeof batchDeliveryLogSchema;
  /** The owner within its retention (or a 404), and whether its delivery can be sent again yet. */
  find(ctx: HttpContext, id: string, caller: Caller): Promise<{ id: string; settled: boolean }>;
  /** The 409 for an owner whose webhook has not been sent a first time yet. */
  notSettled(id: string): RequestError;
}

const TASK: Owner = {
  idField: 'taskId',
  path: '/v1/async/task/:id/deliveries',
  noun: 'task',
  schema: deliveryLogSchema,
  async find(ctx, id, caller) {
    const task = await liveTaskOr404(ctx, id, caller);
    return { id: task.id, settled: TERMINAL_STATUSES.has(task.status) };
  },
  notSettled: (id) => new RequestError('TASK_NOT_TERMINAL', undefined, { id }),
};

const BATCH: Owner = {
  idField: 'batchId',
  path: '/v1/async/batch/:id/deliveries',
  noun: 'batch',
  schema: batchDeliveryLogSchema,
  async find(ctx, id, caller) {
    const batch = await liveBatchOr404(ctx, id, caller);
    return { id: batch.id, settled: batch.completedAt !== null };
  },
  notSettled: (id) => new RequestError('BATCH_NOT_COMPLETED', undefined, { id }),
};

/**
 * The webhook delivery log of a task or a batch (kept as long as its owner: its retention), and redelivery: the
 * same body again with a new webhook-id, due at once, with five attempts of its own.
 */
export function registerDeliveryRoutes(app: FastifyInstance, ctx: HttpContext): void {
  for (const owner of [TASK, BATCH]) registerOwnerRoutes(app, ctx, owner);
}

function registerOwnerRoutes(app: FastifyInstance, ctx: HttpContext, owner: Owner): void {
  const answer = async (id: string) => {
    const row = await ctx.store.outbox.log(id);
    return { success: true, [owner.idField]: id, webhook: row ? deliveryLogView(row) : null };
  };

  app.get<{ Params: { id: string } }>(
    owner.path,
    {
      schema: {
        summary: `A ${owner.noun}'s webhook delivery log`,
        params: idParamsSchema,
        response: { 200: owner.schema, 401: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (req) => answer((await owner.find(ctx, req.params.id, callerOf(req))).id),
  );

  app.post<{ Params: { id: string } }>(
    owner.path,
    {
      schema: {
        summary: `Send a finished ${owner.noun}'s webhook again (a new webhook-id, due at once)`,
        params: idParamsSchema,
        response: {
          202: owner.schema,
          401: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          422: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      const { id, settled } = await owner.find(ctx, req.params.id, callerOf(req));
      if (!settled) throw owner.notSettled(id);
      const outcome = await ctx.store.outbox.requestRedelivery({ taskId: id, now: ctx.now() });
      if (outcome === 'none')
        throw new RequestError('NO_WEBHOOK', `The ${owner.noun} was submitted without a webhook.`, { id });
      if (outcome === 'busy')
        throw new RequestError('DELIVERY_IN_PROGRESS', `The ${owner.noun}'s webhook delivery is still under way.`, {
          id,
        });
      return reply.code(202).send(await answer(id));
    },
  );
}
