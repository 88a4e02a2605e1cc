import type { FastifyInstance } from 'fastify';
import { RequestError } from '../../domain/request-errors.js';
import { SecretUnreadableError, type AccountSecretView } from '../../webhooks/account-secrets.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import { errorEnvelopeSchema } from '../schemas/common.js';

const secretString = { type: 'string', pattern: '^whsec_', description: '`whsec_` and the base64 of the key bytes' };

/** The account's webhook signing secrets, as GET /v1/webhooks/secret and its rotation answer them. */
const webhookSecretSchema = {
  type: 'object',
  required: ['success', 'secret', 'createdAt', 'previous', 'source'],
  properties: {
    success: { type: 'boolean' },
    secret: { ...secretString, description: "The account's current secret: every delivery is signed with it" },
    createdAt: { type: 'string', format: 'date-time', nullable: true, description: 'null for a configured secret' },
    previous: {
      type: 'object',
      nullable: true,
      required: ['secret', 'expiresAt'],
      description: 'The secret the last rotation replaced, which signs too (a second `v1,` signature) until expiresAt',
      properties: { secret: secretString, expiresAt: { type: 'string', format: 'date-time' } },
    },
    source: {
      type: 'string',
      enum: ['account', 'configured'],
      description: "`configured`: the default account's AEQ_WEBHOOK_SECRET (the first one); `account`: made by aeq",
    },
  },
} as const;

function body(v: AccountSecretView) {
  return {
    success: true,
    secret: v.secret,
    createdAt: v.createdAt === null ? null : new Date(v.createdAt).toISOString(),
    previous: v.previous
      ? { secret: v.previous.secret, expiresAt: new Date(v.previous.expiresAt).toISOString() }
      : null,
    source: v.source,
  };
}

function unreadable(e: unknown): never {
  if (e instanceof SecretUnreadableError) throw new RequestError('WEBHOOK_SECRET_UNREADABLE');
  throw e;
}

/**
 * GET /v1/webhooks/secret and POST /v1/webhooks/secret/rotate: the caller's account's webhook signing secret (made
 * on first use), and a new one, the replaced one signing too for 24 hours (webhooks/account-secrets.ts).
 */
export function registerWebhookSecretRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.get(
    '/v1/webhooks/secret',
    {
      schema: {
        summary: "The caller's account's webhook signing secret (made on first use)",
        response: { 200: webhookSecretSchema, 401: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const view = await ctx.webhookSecrets.view(callerOf(req).accountId).catch(unreadable);
      void reply.header('cache-control', 'no-store');
      return body(view);
    },
  );
  app.post(
    '/v1/webhooks/secret/rotate',
    {
      schema: {
        summary: "A new webhook signing secret for the caller's account; the replaced one signs too for 24 hours",
        response: { 200: webhookSecretSchema, 401: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const view = await ctx.webhookSecrets.rotate(callerOf(req).accountId).catch(unreadable);
      if (view === null) throw new RequestError('WEBHOOK_SECRET_CONFIGURED');
      void reply.header('cache-control', 'no-store');
      return body(view);
    },
  );
}
