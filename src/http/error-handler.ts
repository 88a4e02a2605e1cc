import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { RequestError, errorObject } from '../domain/request-errors.js';
import { readRestAfterAnswer } from './refused-body.js';
import { ajvToProblems } from './validation-details.js';

/**
 * How a refused or failed request is answered: always the error envelope (`{success: false, error}`) with the code's
 * status from the catalogue (src/domain/request-errors.ts). A `RequestError` is answered as thrown; a schema failure is
 * VALIDATION_ERROR with one problem per field; an over-long body PAYLOAD_TOO_LARGE; any other 4xx of Fastify's a
 * VALIDATION_ERROR with its status (415 answered as 400); anything else is logged with its stack and answered
 * INTERNAL_ERROR, never with its message. Requests the HTTP parser refuses are answered in client-errors.ts.
 */

const TASK_PATH = '/v1/async/task/';
const BATCH_PATH = '/v1/async/batch/';

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The request's path without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function send(reply: FastifyReply, e: RequestError, now: number): FastifyReply {
  return reply.code(e.status).send({ success: false, error: errorObject(e, new Date(now)) });
}

/** Fastify's error handler: whatever a hook, a parser, the validator or a route threw, as the envelope. */
export function errorHandler(now: () => number) {
  return (err: FastifyError | RequestError, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const at = now();
    let e: RequestError;
    if (err instanceof RequestError) e = err;
    else if (err.validation) {
      const problems = ajvToProblems(err.validation);
      const first = problems[0];
      e = new RequestError(
        'VALIDATION_ERROR',
        first ? `${first.field || 'body'}: ${first.message}` : undefined,
        problems,
      );
    } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      e = new RequestError(
        'PAYLOAD_TOO_LARGE',
        `The request body is over the ${req.routeOptions.bodyLimit ?? 1048576} byte limit of this endpoint.`,
      );
      // The answer at once, and the rest of the body read after it on a kept connection (see refused-body.ts).
      if (readRestAfterAnswer(req.raw)) reply.removeHeader('connection');
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      e = new RequestError('VALIDATION_ERROR', err.message, undefined, err.statusCode === 415 ? 400 : err.statusCode);
    } else {
      req.log.error({ err, reqId: req.id }, 'unhandled error');
      e = new RequestError('INTERNAL_ERROR');
    }
    return send(reply, e, at);
  };
}

/**
 * A URL the router refused before any hook ran (an over-long or badly encoded path parameter). No route was matched,
 * so nothing is reached: the key only decides between 401 and the envelope of the problem, and a GET of a task or
 * batch id that cannot exist answers as an unknown id would.
 */
export function frameworkErrorAnswer(
  authorized: boolean,
  err: FastifyError,
  req: FastifyRequest,
  reply: FastifyReply,
  now: number,
): void {
  const path = pathOf(req.url);
  const base = [TASK_PATH, BATCH_PATH].find((p) => path.startsWith(p));
  const id = base ? safeDecode(path.slice(base.length)) : null;
  const e = !authorized
    ? new RequestError('MISSING_API_KEY')
    : id !== null && req.method === 'GET'
      ? new RequestError('RESOURCE_NOT_FOUND', 'No task or batch with this id (unknown or expired).', { id })
      : new RequestError('VALIDATION_ERROR', err.message, [{ field: '', message: 'the URL path is not valid' }]);
  void send(reply, e, now);
}

/** A URL no route matches: 404 NOT_FOUND naming the method and path; `reason` says why, when there is one. */
export function notFoundHandler(now: () => number, reason?: string) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const e = new RequestError('NOT_FOUND', `No route ${req.method} ${pathOf(req.url)}${reason ? `: ${reason}` : ''}.`);
    return send(reply, e, now());
  };
}
