import type { FastifyInstance, FastifyReply } from 'fastify';
import { ARTIFACT_KIND_ORDER, artifactKindOf, type StoredArtifact } from '../../domain/artifact.js';
import { RequestError } from '../../domain/request-errors.js';
import { taskMetadata } from '../../domain/task-view.js';
import type { PolledTask } from '../../domain/task.js';
import type { ArtifactFiles } from '../../store/ports.js';
import { byteRange } from '../byte-range.js';
import { callerOf } from '../caller.js';
import type { HttpContext } from '../context.js';
import { artifactBytesSchema, artifactListSchema, artifactParamsSchema } from '../schemas/artifacts.js';
import { errorEnvelopeSchema, idParamsSchema } from '../schemas/common.js';
import { liveTaskOr404 } from './task-lookup.js';

/**
 * What an artefact's download answers with besides its bytes. The bytes are an upstream's (a page's HTML, its
 * payload), served from the service's own origin: `sandbox` makes a browser that opens one treat it as a page of no
 * origin with no scripts, and `nosniff` keeps it the type stated, so a kept page can never run as the service.
 */
const DOWNLOAD_HEADERS = {
  'accept-ranges': 'bytes',
  'cache-control': 'private, no-cache',
  'content-security-policy': "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
} as const;

/**
 * GET /v1/async/task/{id}/artifacts: what evidence a task kept; GET …/artifacts/{name}: one artefact's bytes. The
 * task is found as polling finds it (the caller's account, within retention, else 404 RESOURCE_NOT_FOUND), and its
 * artefacts by the task's own list, so a name is only ever one the service recorded.
 */
export function registerTaskArtifactRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const files = ctx.artifactFiles;
  const stored = async (task: PolledTask, accountId: string): Promise<StoredArtifact[]> => {
    const list = await ctx.store.tasks.artifacts({
      id: task.id,
      accountId,
      notBefore: ctx.now() - ctx.settings.retentionMs,
    });
    // Swept between the two reads: as unknown as the first read would have found it a moment later.
    if (!list)
      throw new RequestError('RESOURCE_NOT_FOUND', `No task with id ${JSON.stringify(task.id)} (expired).`, {
        id: task.id,
      });
    return list;
  };

  app.get<{ Params: { id: string } }>(
    '/v1/async/task/:id/artifacts',
    {
      schema: {
        summary: 'The artefacts a task kept (include.artifacts): raw payload, page HTML, screenshot',
        params: idParamsSchema,
        response: { 200: artifactListSchema, 401: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const task = await liveTaskOr404(ctx, req.params.id, caller);
      const list = await stored(task, caller.accountId);
      const order = (a: StoredArtifact) => ARTIFACT_KIND_ORDER.indexOf(a.kind);
      return {
        success: true,
        task: taskMetadata(task),
        artifacts: [...list]
          .sort((a, b) => order(a) - order(b))
          .map((a) => ({
            name: a.name,
            kind: a.kind,
            contentType: a.contentType,
            bytes: a.bytes,
            sha256: a.sha256,
            createdAt: new Date(a.createdAt).toISOString(),
            url: `/v1/async/task/${task.id}/artifacts/${a.name}`,
          })),
      };
    },
  );

  app.get<{ Params: { id: string; name: string } }>(
    '/v1/async/task/:id/artifacts/:name',
    {
      schema: {
        summary: "One of a task's artefacts, its bytes (a single Range is honoured: 206, or 416)",
        params: artifactParamsSchema,
        response: {
          200: artifactBytesSchema,
          206: artifactBytesSchema,
          401: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          416: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const task = await liveTaskOr404(ctx, req.params.id, caller);
      const name = req.params.name;
      const missing = () =>
        new RequestError('ARTIFACT_NOT_FOUND', `The task kept no artefact named ${JSON.stringify(name)}.`, {
          id: task.id,
          name,
        });
      // A name the service never makes is refused before any read: no request text reaches a path.
      if (artifactKindOf(name) === null) throw missing();
      const artifact = (await stored(task, caller.accountId)).find((a) => a.name === name);
      if (!artifact) throw missing();
      const file = await files.open({ taskId: task.id, attempt: artifact.attempt, name: artifact.name });
      // The row names it but the file is gone (the task is being swept): as absent as after the sweep.
      if (!file) throw missing();
      const ifRange = req.headers['if-range'];
      return sendArtifact(reply, artifact, file, req.headers.range, typeof ifRange === 'string' ? ifRange : undefined);
    },
  );
}

function sendArtifact(
  reply: FastifyReply,
  artifact: StoredArtifact,
  file: NonNullable<Awaited<ReturnType<ArtifactFiles['open']>>>,
  rangeHeader: string | undefined,
  ifRange: string | undefined,
): FastifyReply {
  const etag = `"${artifact.sha256}"`;
  // If-Range: the range holds only for the version the client has; for another one, the whole file (RFC 9110 13.1.5).
  const range =
    ifRange !== undefined && ifRange !== etag ? { kind: 'full' as const } : byteRange(rangeHeader, file.size);
  if (range.kind === 'unsatisfiable') {
    reply.header('content-range', `bytes */${file.size}`);
    throw new RequestError('RANGE_NOT_SATISFIABLE', undefined, { size: file.size });
  }
  // Set only now: an error above is the JSON envelope, with its own type.
  reply.headers({ ...DOWNLOAD_HEADERS, etag, 'content-type': artifact.contentType });
  if (range.kind === 'partial') {
    reply.code(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
    reply.header('content-length', String(range.end - range.start + 1));
    return reply.send(file.stream({ start: range.start, end: range.end }));
  }
  reply.header('content-length', String(file.size));
  return reply.send(file.stream());
}
