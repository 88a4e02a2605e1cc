import type { FastifyInstance } from 'fastify';
import type {} from '@fastify/swagger';
import { ACCOUNT_KINDS, type AccountKind, inferredKind, kindMismatch } from '../../config/account-kind.js';
import type { ExitAddressConfig } from '../../config/engine-config.js';
import { RequestError, validationError } from '../../domain/request-errors.js';
import { ALL_TASK_TYPES, ENGINE_TASK_TYPES } from '../../domain/engine-catalog.js';
import type { TaskType } from '../../domain/task-types.js';
import { parseProxyUrl } from '../../transport/proxy-endpoint.js';
import type { AccountValue } from '../../pools/pools.js';
import type { PoolResource, ResourcePool } from '../../pools/resource-pool.js';
import type { HttpContext } from '../context.js';

/** Ids end up in URL paths (disable, enable, delete): keep them to URL-safe characters. */
const id = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' } as const;
const country = { type: 'string', pattern: '^[A-Za-z]{2}$' } as const;

const accountBody = {
  type: 'object',
  required: ['id', 'engine', 'country', 'secret'],
  properties: {
    id,
    engine: { enum: [...ENGINE_TASK_TYPES] },
    country,
    kind: { enum: [...ACCOUNT_KINDS] },
    secret: { type: 'string', minLength: 1, maxLength: 8192 },
  },
  // A mistyped member would otherwise be dropped silently and the resource added without it.
  additionalProperties: false,
} as const;

const exitBody = {
  type: 'object',
  required: ['id', 'country'],
  properties: {
    id,
    country,
    proxyUrl: { type: 'string', minLength: 1, maxLength: 2048 },
    maxConcurrent: { type: 'integer', minimum: 1, maximum: 10000 },
  },
  additionalProperties: false,
} as const;

interface AccountBody {
  id: string;
  engine: TaskType;
  country: string;
  /** Absent: the kind the engine's configuration implies (config/account-kind.ts `inferredKind`). */
  kind?: AccountKind;
  secret: string;
}

interface ExitBody {
  id: string;
  country: string;
  proxyUrl?: string;
  maxConcurrent?: number;
}

/** Same default as a config file's exit address without `maxConcurrent`. */
const DEFAULT_MAX_CONCURRENT = 8;

/**
 * Operator routes under /internal/* (separate token, not part of the client contract): list, add,
 * remove, disable or re-enable pool resources, pause or resume an engine. Changes are recorded in
 * the store (every process applies them; they survive restarts) and apply at once to the region
 * checks and /capacity of the process that received them. Responses carry ids, countries, load and cooldown state,
 * and the
 * proxy scheme only: never an account secret or a proxy URL (which may hold a password).
 */
export function registerInternalRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const hide = { hide: true };
  // A resource rests per upstream (resource-pool.ts): the latest rest, and each upstream's own.
  const cooling = <T>(pool: ResourcePool<T>, r: PoolResource<T>) => {
    const until = pool.coolingUntil(r);
    const byUpstream = Object.fromEntries(
      pool.activeCooldowns(r).map((c) => [c.scope, new Date(c.until).toISOString()]),
    );
    return { coolingDownUntil: until ? new Date(until).toISOString() : null, coolingDownFor: byUpstream };
  };
  const exitView = (r: PoolResource<ExitAddressConfig>) => ({
    id: r.id,
    country: r.country,
    capacity: r.capacity,
    inUse: r.inUse,
    disabled: r.disabled,
    ...cooling(ctx.pools.exits, r),
    proxy: r.value.proxyUrl ? proxyScheme(r.value.proxyUrl) : 'direct',
  });
  const accountView = (r: PoolResource<AccountValue>) => ({
    id: r.id,
    engine: r.value.engine,
    kind: r.value.kind,
    country: r.country,
    inUse: r.inUse,
    disabled: r.disabled,
    ...cooling(ctx.pools.accounts, r),
  });
  const refuseDuplicate = (resourceId: string) => {
    if (ctx.pools.hasId(resourceId)) {
      throw new RequestError('RESOURCE_ALREADY_EXISTS', `A pool resource with id ${resourceId} already exists.`, {
        id: resourceId,
      });
    }
  };

  app.get('/internal/pools', { schema: hide }, async () => ({
    exitAddresses: ctx.pools.exits.list().map(exitView),
    accounts: ctx.pools.accounts.list().map(accountView),
  }));

  app.post<{ Body: AccountBody }>(
    '/internal/pools/accounts',
    { schema: { ...hide, body: accountBody } },
    async (req, reply) => {
      const b = req.body;
      refuseDuplicate(b.id);
      const kind = b.kind ?? inferredKind(b.engine, ctx.config.engines[b.engine]);
      const wrong = kindMismatch(b.engine, kind, b.secret);
      if (wrong) throw validationError([{ field: 'kind', message: wrong }]);
      await ctx.runtime.addAccount({
        id: b.id,
        engine: b.engine,
        country: b.country.toUpperCase(),
        kind,
        secret: b.secret,
      });
      const added = ctx.pools.accounts.get(b.id);
      if (!added) throw new RequestError('INTERNAL_ERROR');
      return reply.code(201).send({ ok: true, account: accountView(added) });
    },
  );

  app.post<{ Body: ExitBody }>(
    '/internal/pools/exit-addresses',
    { schema: { ...hide, body: exitBody } },
    async (req, reply) => {
      const b = req.body;
      if (b.proxyUrl !== undefined) checkProxyUrl(b.proxyUrl);
      refuseDuplicate(b.id);
      const x: ExitAddressConfig = {
        id: b.id,
        country: b.country.toUpperCase(),
        maxConcurrent: b.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
      };
      if (b.proxyUrl !== undefined) x.proxyUrl = b.proxyUrl;
      await ctx.runtime.addExit(x);
      const added = ctx.pools.exits.get(b.id);
      if (!added) throw new RequestError('INTERNAL_ERROR');
      return reply.code(201).send({ ok: true, exitAddress: exitView(added) });
    },
  );

  const poolOf = (kind: string) =>
    kind === 'accounts' ? ctx.pools.accounts : kind === 'exit-addresses' ? ctx.pools.exits : null;
  const kindOf = (kind: string) => (kind === 'accounts' ? 'account' : 'exit') as 'account' | 'exit';

  app.delete<{ Params: { kind: string; id: string } }>('/internal/pools/:kind/:id', { schema: hide }, async (req) => {
    const { kind, id: resourceId } = req.params;
    const pool = poolOf(kind);
    if (!pool) throw new RequestError('NOT_FOUND');
    const existing = pool.get(resourceId);
    if (!existing) throw new RequestError('NOT_FOUND', `No ${kind} resource ${resourceId}.`);
    // Recorded in the store so every process drops it; attempts holding it finish normally.
    await ctx.runtime.remove(kindOf(kind), resourceId);
    return { ok: true, id: resourceId, removed: true, inUse: existing.inUse };
  });

  app.post<{ Params: { kind: string; id: string; op: string } }>(
    '/internal/pools/:kind/:id/:op',
    { schema: hide },
    async (req) => {
      const { kind, id: resourceId, op } = req.params;
      const pool = poolOf(kind);
      if (!pool || (op !== 'disable' && op !== 'enable')) throw new RequestError('NOT_FOUND');
      if (!pool.get(resourceId)) throw new RequestError('NOT_FOUND', `No ${kind} resource ${resourceId}.`);
      await ctx.runtime.setDisabled(kindOf(kind), resourceId, op === 'disable');
      return { ok: true, id: resourceId, disabled: op === 'disable' };
    },
  );

  app.post<{ Params: { engine: string; op: string } }>(
    '/internal/engines/:engine/:op',
    { schema: hide },
    async (req) => {
      const t = req.params.engine.toUpperCase() as TaskType;
      if (!ALL_TASK_TYPES.includes(t) || (req.params.op !== 'pause' && req.params.op !== 'resume'))
        throw new RequestError('NOT_FOUND');
      // Recorded in the store so every worker process follows; a resumed engine is claimed at once.
      await ctx.runtime.setPaused(t, req.params.op === 'pause');
      if (!ctx.config.engines[t].paused) ctx.notify(t);
      return { ok: true, engine: t, paused: ctx.config.engines[t].paused };
    },
  );
}

function proxyScheme(proxyUrl: string): string {
  try {
    return new URL(proxyUrl).protocol.replace(':', '');
  } catch {
    return 'invalid';
  }
}

/**
 * Only proxies the transport can use (its own parser decides); the message never repeats the URL (it may hold a
 * password).
 */
function checkProxyUrl(proxyUrl: string): void {
  try {
    parseProxyUrl('new', proxyUrl);
  } catch {
    throw validationError([
      { field: 'proxyUrl', message: 'must be an http://, https://, socks5:// or socks5h:// proxy URL with a host' },
    ]);
  }
}
