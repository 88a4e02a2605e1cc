import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import type {} from '@fastify/swagger';
import { RequestError, errorObject, validationError, type ErrorObject } from '../../domain/request-errors.js';
import { pollingView, withResponseJson } from '../../domain/task-view.js';
import { envelopeToTask, type EnvelopeInput } from '../../submission/envelope.js';
import { BATCH_MAX_ITEMS, submitBatch, submitOne, type SubmitDeps } from '../../submission/submit.js';
import type { HttpContext } from '../context.js';
import { batchResponseSchema, batchSubmitQuerySchema } from '../schemas/batches.js';
import { errorEnvelopeSchema, idParamsSchema } from '../schemas/common.js';
import { batchSchema, envelopeSchema } from '../schemas/submission.js';
import { acceptedSchema, pollingSchema } from '../schemas/tasks.js';
import { ajvToProblems } from '../validation-details.js';
import { strictValidator } from '../../config/json-schemas.js';
import { callerOf } from '../caller.js';
import { liveTaskOr404 } from './task-lookup.js';

const BATCH_MAX_BYTES = 8 * 1024 * 1024;
const SINGLE_MAX_BYTES = 1024 * 1024;

const errorResponses = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  413: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
};

/** What the submit use cases (src/submission/submit.ts) take of the HTTP context. */
export function submitDeps(ctx: HttpContext): SubmitDeps {
  return {
    config: ctx.config,
    pools: ctx.pools,
    now: ctx.now,
    store: ctx.store,
    metrics: ctx.metrics,
    notify: ctx.notify,
    retentionMs: ctx.settings.retentionMs,
  };
}

export function registerTaskRoutes(app: FastifyInstance, ctx: HttpContext): void {
  // Batch items are validated one by one with the same schema as the single endpoint.
  const validateItem = strictValidator<EnvelopeInput>(envelopeSchema);
  const checkItem = (item: unknown): EnvelopeInput => {
    if (!validateItem(item)) throw validationError(ajvToProblems(validateItem.errors ?? []));
    return item;
  };
  const deps = submitDeps(ctx);

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
      return reply.code(202).send(await submitOne(deps, task));
    },
  );

  const validateBatchQuery = strictValidator(batchSubmitQuerySchema);
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
      const submitted = await submitBatch(
        deps,
        callerOf(req).accountId,
        items,
        req.query.webhook ?? null,
        checkItem,
        (e) => req.log.error({ err: e, reqId: req.id }, 'batch insert failed'),
      );
      const now = new Date(submitted.at);
      const results = submitted.items.map(
        (o): Record<string, unknown> =>
          'accepted' in o
            ? { success: true, index: o.index, task: o.accepted.task, credits: o.accepted.credits }
            : failure(o.index, o.error, now),
      );
      const succeeded = results.filter((r) => r.success === true).length;
      return {
        success: true,
        batch: submitted.batch,
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
