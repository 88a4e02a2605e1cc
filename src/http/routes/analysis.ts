import type { FastifyInstance } from 'fastify';
import type {} from '@fastify/swagger';
import {
  promptResearchTask,
  sourceInfluenceTask,
  type PromptResearchInput,
  type SourceInfluenceInput,
} from '../../submission/analysis-requests.js';
import type { HttpContext } from '../context.js';
import { errorEnvelopeSchema } from '../schemas/common.js';
import { promptResearchSchema, sourceInfluenceSchema } from '../schemas/submission.js';
import { acceptedSchema } from '../schemas/tasks.js';
import { callerOf } from '../caller.js';
import { submitOne } from '../../submission/submit.js';
import { submitDeps } from './tasks.js';

/** Source-influence bodies are capped at 1 MiB by the contract. */
const SOURCE_INFLUENCE_MAX_BYTES = 1024 * 1024;

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  413: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
};

export function registerAnalysisRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const deps = submitDeps(ctx);
  app.post<{ Body: SourceInfluenceInput }>(
    '/v1/source-influence',
    {
      bodyLimit: SOURCE_INFLUENCE_MAX_BYTES,
      schema: {
        summary: 'Queue a source-influence analysis',
        body: sourceInfluenceSchema,
        response: { 202: acceptedSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(202).send(await submitOne(deps, sourceInfluenceTask(req.body, ctx, callerOf(req).accountId))),
  );

  app.post<{ Body: PromptResearchInput }>(
    '/v1/prompt-research',
    {
      bodyLimit: SOURCE_INFLUENCE_MAX_BYTES,
      schema: {
        summary: 'Queue a prompt-research task',
        body: promptResearchSchema,
        response: { 202: acceptedSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(202).send(await submitOne(deps, promptResearchTask(req.body, ctx, callerOf(req).accountId))),
  );
}
