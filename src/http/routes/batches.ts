import type { FastifyInstance } from 'fastify';
import { batchView, type BatchRecord } from '../../domain/batch.js';
import type { Caller } from '../../domain/account.js';
import { RequestError } from '../../domain/request-errors.js';
import { callerOf } from '../caller.js';
import { targetHostOf } from '../../domain/webhook-target.js';
import type { HttpContext } from '../context.js';
import { coercedQuery } from '../query-validator.js';
import { batchListQuerySchema, batchListSchema, batchQuerySchema, batchStatusSchema } from '../schemas/batches.js';
import { errorEnvelopeSchema, idParamsSchema } from '../schemas/common.js';
import { UUID_RE } from '../../domain/task-id.js';

/** A batch within its retention (that of its tasks) by the id of a path, or 404 RESOURCE_NOT_FOUND. */
export async function liveBatchOr404(ctx: HttpContext, id: string, caller: Caller): Promise<BatchRecord> {
  // Another account's batch is not found either (404, never 403: ids cannot be probed).
  const batch = UUID_RE.test(id)
    ? await ctx.store.batches.get({
        id: id.toLowerCase(),
        accountId: caller.accountId,
        notBefore: ctx.now() - ctx.settings.retentionMs,
      })
    : undefined;
  if (!batch)
    throw new RequestError('RESOURCE_NOT_FOUND', `No batch with id ${JSON.stringify(id)} (unknown or expired).`, {
      id,
    });
  return batch;
}

/**
 * A batch's progress: counts by status, done/total, timestamps, and its items in order, a page at a time; and the
 * account's batches within retention, newest first.
 */
export function registerBatchRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.get<{ Querystring: { limit: number; cursor?: string } }>(
    '/v1/async/batches',
    {
      validatorCompiler: coercedQuery(batchListQuerySchema),
      schema: {
        summary: "The account's batches (within the 24-hour retention), newest first, with their progress",
        querystring: batchListQuerySchema,
        response: { 200: batchListSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema },
      },
    },
    async (req) => {
      const { accountId } = callerOf(req);
      const { limit, cursor } = req.query;
      const notBefore = ctx.now() - ctx.settings.retentionMs;
      const page = await ctx.store.batches.list({
        accountId,
        notBefore,
        beforeId: cursor?.toLowerCase() ?? null,
        limit,
      });
      return {
        success: true,
        batches: page.batches.map(batchView),
        nextCursor: page.more ? (page.batches.at(-1)?.id ?? null) : null,
      };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { limit: number; cursor?: string; include?: 'request' } }>(
    '/v1/async/batch/:id',
    {
      validatorCompiler: coercedQuery(batchQuerySchema),
      schema: {
        summary: "A batch's progress and its items",
        params: idParamsSchema,
        querystring: batchQuerySchema,
        response: {
          200: batchStatusSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
        },
      },
    },
    async (req) => {
      const batch = await liveBatchOr404(ctx, req.params.id, callerOf(req));
      const after = req.query.cursor === undefined ? -1 : Number(req.query.cursor);
      // One more than the page tells whether another page follows.
      const rows = await ctx.store.batches.items({
        batch,
        after,
        limit: req.query.limit + 1,
        withPayload: req.query.include === 'request',
      });
      const items = rows.slice(0, req.query.limit);
      const last = items.at(-1);
      return {
        success: true,
        batch: {
          ...batchView(batch),
          webhook: batch.webhookUrl ? { targetHost: targetHostOf(batch.webhookUrl) } : null,
        },
        items,
        nextCursor: rows.length > items.length && last ? String(last.index) : null,
      };
    },
  );
}
