import type { FastifyRequest } from 'fastify';
import type { Caller } from '../domain/account.js';
import { RequestError } from '../domain/request-errors.js';

/** The caller the auth hook found (server.ts); a client route without one is refused, never served as anyone. */
export function callerOf(req: FastifyRequest): Caller {
  if (!req.caller) throw new RequestError('MISSING_API_KEY');
  return req.caller;
}
