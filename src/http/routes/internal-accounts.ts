import type { FastifyInstance } from 'fastify';
import {
  AdminError,
  accountView,
  createAccount,
  createKey,
  keyView,
  listKeys,
  revokeKey,
} from '../../accounts/admin.js';
import { RequestError, type RequestErrorCode } from '../../domain/request-errors.js';
import type { HttpContext } from '../context.js';

const hide = { hide: true } as const;

const accountBody = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 63 } },
  additionalProperties: false,
} as const;

const keyBody = {
  type: 'object',
  required: ['account'],
  properties: {
    account: { type: 'string', minLength: 1, maxLength: 63 },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    expires: { type: 'string', maxLength: 10, description: 'a duration: 90d, 12h, 30m' },
  },
  additionalProperties: false,
} as const;

const ADMIN_CODES: Record<AdminError['code'], RequestErrorCode> = {
  ACCOUNT_EXISTS: 'ACCOUNT_EXISTS',
  ACCOUNT_NOT_FOUND: 'ACCOUNT_NOT_FOUND',
  KEY_NOT_FOUND: 'KEY_NOT_FOUND',
  BAD_NAME: 'VALIDATION_ERROR',
  BAD_EXPIRY: 'VALIDATION_ERROR',
};

async function admin<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (e instanceof AdminError) throw new RequestError(ADMIN_CODES[e.code], e.message);
    throw e;
  }
}

/**
 * Account and key administration behind AEQ_INTERNAL_TOKEN (the same steps as `aeq accounts|keys`). A created key
 * is in the 201 answer once; lists never show a key or its hash. A revocation is refused at once by this process and
 * within a keys-version poll by every other.
 */
export function registerAccountAdminRoutes(app: FastifyInstance, ctx: HttpContext): void {
  // /stats of every account together (the client route answers the caller's own account).
  app.get('/internal/stats', { schema: hide }, async () => {
    const s = await ctx.store.figures.stats({ notBefore: ctx.now() - ctx.settings.retentionMs });
    return { tasks: s.tasks, byEngine: s.byEngine, webhooks: s.webhooks };
  });

  app.get('/internal/accounts', { schema: hide }, async () => ({
    accounts: (await ctx.store.accounts.list()).map(accountView),
  }));

  app.post<{ Body: { name: string } }>(
    '/internal/accounts',
    { schema: { ...hide, body: accountBody } },
    async (req, reply) => {
      const account = await admin(() => createAccount(ctx.store.accounts, req.body.name, ctx.now()));
      return reply.code(201).send({ account: accountView(account) });
    },
  );

  const keysQuery = {
    type: 'object',
    properties: { account: { type: 'string', minLength: 1, maxLength: 63 } },
  } as const;
  app.get<{ Querystring: { account?: string } }>(
    '/internal/keys',
    { schema: { ...hide, querystring: keysQuery } },
    async (req) => {
      const keys = await admin(() => listKeys(ctx.store.accounts, req.query.account));
      const now = ctx.now();
      return { keys: keys.map((k) => keyView(k, now)) };
    },
  );

  app.post<{ Body: { account: string; name?: string; expires?: string } }>(
    '/internal/keys',
    { schema: { ...hide, body: keyBody } },
    async (req, reply) => {
      const now = ctx.now();
      const { key, record } = await admin(() => createKey(ctx.store.accounts, req.body, now));
      ctx.auth.forget();
      return reply.code(201).send({ key, ...keyView(record, now) });
    },
  );

  app.post<{ Params: { prefix: string } }>('/internal/keys/:prefix/revoke', { schema: hide }, async (req) => {
    const now = ctx.now();
    const record = await admin(() => revokeKey(ctx.store.accounts, req.params.prefix, now));
    ctx.auth.forget();
    return keyView(record, now);
  });
}
