import type { FastifyInstance } from 'fastify';
import type {} from '@fastify/swagger';
import { RequestError } from '../../domain/request-errors.js';
import { ALL_TASK_TYPES, type TaskType } from '../../domain/task-types.js';
import type { HttpContext } from '../context.js';

/**
 * Operator routes under /internal/* (separate token, not part of the client contract): list pool
 * resources without their secrets, disable or re-enable them, pause or resume an engine.
 */
export function registerInternalRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const hide = { hide: true };
  app.get('/internal/pools', { schema: hide }, async () => ({
    exitAddresses: ctx.pools.exits.list().map((r) => ({
      id: r.id,
      country: r.country,
      capacity: r.capacity,
      inUse: r.inUse,
      disabled: r.disabled,
      coolingDownUntil: r.coolUntil > ctx.now() ? new Date(r.coolUntil).toISOString() : null,
      proxy: r.value.proxyUrl ? new URL(r.value.proxyUrl).protocol.replace(':', '') : 'direct',
    })),
    accounts: ctx.pools.accounts.list().map((r) => ({
      id: r.id,
      engine: r.value.engine,
      country: r.country,
      inUse: r.inUse,
      disabled: r.disabled,
      coolingDownUntil: r.coolUntil > ctx.now() ? new Date(r.coolUntil).toISOString() : null,
    })),
  }));

  app.post<{ Params: { kind: string; id: string; op: string } }>('/internal/pools/:kind/:id/:op', { schema: hide }, async (req) => {
    const { kind, id, op } = req.params;
    const pool = kind === 'accounts' ? ctx.pools.accounts : kind === 'exit-addresses' ? ctx.pools.exits : null;
    if (!pool || (op !== 'disable' && op !== 'enable')) throw new RequestError('NOT_FOUND');
    if (!pool.setDisabled(id, op === 'disable')) throw new RequestError('NOT_FOUND', `No ${kind} resource ${id}.`);
    return { ok: true, id, disabled: op === 'disable' };
  });

  app.post<{ Params: { engine: string; op: string } }>('/internal/engines/:engine/:op', { schema: hide }, async (req) => {
    const t = req.params.engine.toUpperCase() as TaskType;
    if (!ALL_TASK_TYPES.includes(t) || (req.params.op !== 'pause' && req.params.op !== 'resume')) throw new RequestError('NOT_FOUND');
    ctx.config.engines[t].paused = req.params.op === 'pause';
    return { ok: true, engine: t, paused: ctx.config.engines[t].paused };
  });
}
