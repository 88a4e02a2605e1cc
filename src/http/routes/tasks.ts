import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import type {} from '@fastify/swagger';
import { Ajv } from 'ajv';
import { RequestError, errorObject, validationError, type ErrorObject } from '../../domain/request-errors.js';
import type { NewBatch } from '../../domain/batch.js';
import type { NewTask } from '../../domain/task.js';
import { newTaskId } from '../../domain/task-id.js';
import { creditsView, pollingView, taskMetadata, withResponseJson } from '../../domain/task-view.js';
import { envelopeToTask, type EnvelopeInput } from '../../submission/envelope.js';
import type { InsertOutcome } from '../../store/ports.js';
import type { HttpContext } from '../context.js';
import {
  acceptedSchema,
  batchResponseSchema,
  batchSchema,
  batchSubmitQuerySchema,
  envelopeSchema,
  errorEnvelopeSchema,
  idParamsSchema,
  pollingSchema,
} from '../schemas.js';
import { ajvToProblems } from '../validation-details.js';
import { callerOf } from '../caller.js';
import { liveTaskOr404 } from './task-lookup.js';

export const BATCH_MAX_ITEMS = 500;
export const BATCH_MAX_BYTES = 8 * 1024 * 1024;
export const SINGLE_MAX_BYTES = 1024 * 1024;

const errorResponses = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  413: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
};

/** Inserts one task and turns the store's outcome into the reply (409 on a taken key). */
export async function insertOne(
  ctx: HttpContext,
  task: NewTask,
): Promise<{ success: true; task: ReturnType<typeof taskMetadata>; credits: ReturnType<typeof creditsView> }> {
  const [outcome] = await ctx.store.tasks.insert({ tasks: [task], notBefore: ctx.now() - ctx.settings.retentionMs });
  return acceptedOrThrow(ctx, outcome);
}

function acceptedOrThrow(ctx: HttpContext, outcome: InsertOutcome | undefined) {
  if (!outcome?.ok) {
    if (outcome?.reason === 'DUPLICATE_KEY') {
      throw new RequestError('RESOURCE_ALREADY_EXISTS', undefined, { id: outcome.existingId });
    }
    throw new RequestError('ENQUEUE_ERROR');
  }
  ctx.metrics.tasksSubmitted.inc({ engine: outcome.task.taskType });
  ctx.notify(outcome.task.taskType);
  return { success: true as const, task: taskMetadata(outcome.task), credits: creditsView(outcome.task) };
}

export function registerTaskRoutes(app: FastifyInstance, ctx: HttpContext): void {
  // Batch items are validated one by one with the same schema as the single endpoint.
  const ajv = new Ajv({ allErrors: true, coerceTypes: false, useDefaults: false });
  const validateItem = ajv.compile<EnvelopeInput>(envelopeSchema);

  app.post<{ Body: EnvelopeInput }>(
    '/v1/async/task',
    {
      bodyLimit: SINGLE_MAX_BYTES,
      schema: {
        summary: 'Submit one task',
        body: envelopeSchema,
        response: { 202: acceptedSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const task = envelopeToTask(req.body, ctx, callerOf(req).accountId);
      const accepted = await insertOne(ctx, task);
      return reply.code(202).send(accepted);
    },
  );

  const validateBatchQuery = ajv.compile(batchSubmitQuerySchema);
  app.post<{ Body: unknown[]; Querystring: { webhook?: string } }>(
    '/v1/async/task/batch',
    {
      bodyLimit: BATCH_MAX_BYTES,
      // The schema documents the items; validating them here would refuse the whole batch for one bad item.
      validatorCompiler: ({ httpPart }) => (httpPart === 'body' ? arrayBody : validateBatchQuery),
      schema: {
        summary: 'Submit 1 to 500 tasks of mixed engines',
        querystring: batchSubmitQuerySchema,
        body: batchSchema,
        response: { 200: batchResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const items = req.body;
      if (items.length === 0)
        throw validationError([{ field: '', message: 'the batch must contain 1 to 500 items' }], 'The batch is empty.');
      if (items.length > BATCH_MAX_ITEMS) {
        throw validationError([
          { field: '', message: `the batch must contain 1 to ${BATCH_MAX_ITEMS} items (got ${items.length})` },
        ]);
      }
      const now = new Date(ctx.now());
      const { accountId } = callerOf(req);
      const batch: NewBatch = {
        id: newTaskId(now.getTime()),
        size: items.length,
        webhookUrl: req.query.webhook ?? null,
        createdAt: now.getTime(),
        accountId,
      };
      const results: Array<Record<string, unknown>> = new Array(items.length);
      const toInsert: Array<{ index: number; task: NewTask }> = [];
      items.forEach((item, index) => {
        try {
          if (!validateItem(item)) throw validationError(ajvToProblems(validateItem.errors ?? []));
          const task = envelopeToTask(item, ctx, accountId);
          task.batch = { id: batch.id, index };
          toInsert.push({ index, task });
        } catch (e) {
          results[index] = failure(index, e, now);
        }
      });
      let outcomes: InsertOutcome[];
      let batchMade = true;
      try {
        outcomes = await ctx.store.tasks.insert({
          tasks: toInsert.map((x) => x.task),
          notBefore: ctx.now() - ctx.settings.retentionMs,
          batch,
        });
      } catch (e) {
        req.log.error({ err: e, reqId: req.id }, 'batch insert failed');
        outcomes = toInsert.map(() => ({ ok: false, reason: 'STORE_ERROR', message: 'store unavailable' }));
        batchMade = false;
      }
      toInsert.forEach(({ index }, i) => {
        try {
          const accepted = acceptedOrThrow(ctx, outcomes[i]);
          results[index] = { success: true, index, task: accepted.task, credits: accepted.credits };
        } catch (e) {
          results[index] = failure(index, e, now);
        }
      });
      const succeeded = results.filter((r) => r.success === true).length;
      return {
        success: true,
        batch: batchMade ? { id: batch.id, size: batch.size } : null,
        summary: { total: items.length, succeeded, failed: items.length - succeeded },
        results,
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/v1/async/task/:id',
    {
      schema: {
        summary: 'Poll a task',
        params: idParamsSchema,
        response: { 200: pollingSchema, 401: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const task = await liveTaskOr404(ctx, req.params.id, callerOf(req));
      const { view, responseJson } = pollingView(task);
      if (responseJson === null) return view;
      // The schema's serialiser writes the rest; the stored result (JSON.stringify's own text, which is
      // what the serialiser would make of it: `response` takes any properties) goes in as it is, last,
      // as the schema orders it. Parsing and re-serialising 1-2 KB was a fifth of a poll's CPU.
      const head = reply.serialize(view) as string;
      return reply.type('application/json; charset=utf-8').send(withResponseJson(head, responseJson));
    },
  );
}

/** Validator of the batch body: an array, whatever its items (they are validated one by one). */
const arrayBody = Object.assign(
  (data: unknown): boolean => {
    if (Array.isArray(data)) return true;
    arrayBody.errors = [
      {
        instancePath: '',
        schemaPath: '#/type',
        keyword: 'type',
        message: 'must be an array of submission envelopes',
        params: { type: 'array' },
      },
    ];
    return false;
  },
  { errors: [] as FastifySchemaValidationError[] },
);

function failure(index: number, e: unknown, now: Date): { success: false; index: number; error: ErrorObject } {
  const err = e instanceof RequestError ? e : new RequestError('ENQUEUE_ERROR');
  return { success: false, index, error: errorObject(err, now) };
}
