import Fastify, { type FastifyInstance } from 'fastify';
import { Ajv } from 'ajv';
import { bearerMatches } from '../src/accounts/bearer.js';
import { batchResponseSchema } from '../src/http/schemas/batches.js';
import { idParamsSchema } from '../src/http/schemas/common.js';
import { envelopeSchema } from '../src/http/schemas/submission.js';
import { acceptedSchema, pollingSchema } from '../src/http/schemas/tasks.js';

/**
 * The "bare" baseline: a Fastify server with the service's route schemas, body parsing and key
 * check, answering canned bodies of the real shapes without touching a store or a queue. The
 * service's throughput is reported as a ratio to this one, measured in the same run.
 */
export interface CannedBodies {
  accepted: unknown;
  polling: unknown;
  /** One success item of a batch answer (index is replaced per item). */
  batchItem: Record<string, unknown>;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The polling schema with `response` as any object: the service writes a stored result into its answer as text,
 * while the canned answer here goes through the serialiser, which must not pick among the result schemas.
 */
const barePollingSchema = {
  ...pollingSchema,
  properties: { ...pollingSchema.properties, response: { type: 'object', additionalProperties: true } },
} as const;

export async function startBareServer(
  apiKey: string,
  canned: CannedBodies,
): Promise<{ url: string; close(): Promise<void> }> {
  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false } },
  });
  // Same parser as the service: strict UTF-8 then JSON.parse, whatever the Content-Type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(strictUtf8.decode(body as Buffer)) as unknown);
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.addHook('onRequest', async (req, reply) => {
    if (!bearerMatches(req.headers.authorization, apiKey)) return reply.code(401).send({ success: false });
    return undefined;
  });
  const ajv = new Ajv({ allErrors: true, coerceTypes: false, useDefaults: false });
  const validateItem = ajv.compile(envelopeSchema);

  app.post(
    '/v1/async/task',
    { schema: { body: envelopeSchema, response: { 202: acceptedSchema } } },
    async (_req, reply) => reply.code(202).send(canned.accepted),
  );
  app.post<{ Body: unknown[] }>(
    '/v1/async/task/batch',
    {
      bodyLimit: 8 * 1024 * 1024,
      validatorCompiler: () => (d: unknown) => Array.isArray(d),
      schema: { body: { type: 'array' }, response: { 200: batchResponseSchema } },
    },
    async (req) => {
      const results = req.body.map((item, index) =>
        validateItem(item) ? { ...canned.batchItem, index } : { success: false, index },
      );
      return { success: true, summary: { total: results.length, succeeded: results.length, failed: 0 }, results };
    },
  );
  app.get(
    '/v1/async/task/:id',
    { schema: { params: idParamsSchema, response: { 200: barePollingSchema } } },
    async () => canned.polling,
  );
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: address.replace('localhost', '127.0.0.1'), close: () => app.close() };
}
