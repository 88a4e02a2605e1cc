import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { type Landscape, landscapeOf, withOwnSite } from '../landscape/recommendations.js';
import { requestCountry } from '../request-country.js';
import { fakeCitations, fakeSentences, isKorean } from '../text-gen.js';
import { escapeHtml } from '../../text/html-escape.js';

/**
 * Gemini `POST /v1beta/models/<model>:generateContent` with Search grounding (docs/engines.md#gemini-grounding).
 * Segment offsets are UTF-8 bytes with the zero `startIndex` omitted, as proto3 JSON does; chunk
 * URIs are grounding redirects that point back at this simulator (the real host is
 * vertexaisearch.cloud.google.com) and answer 302 to the publisher URL.
 */
const REDIRECT_TOKEN_PREFIX = 'AUZIYQ';

const error5xx = (reply: FastifyReply) =>
  reply
    .code(503)
    .send({ error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } });

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

export function registerAssistantA(app: FastifyInstance, sim: SimContext): void {
  app.post<{ Params: { modelAction: string } }>('/v1beta/models/:modelAction', async (req, reply) => {
    const [model, action] = req.params.modelAction.split(':');
    if (action !== 'generateContent' || !model) {
      return reply
        .code(404)
        .send({ error: { code: 404, message: `Method ${req.params.modelAction} not found.`, status: 'NOT_FOUND' } });
    }
    const key = req.headers['x-goog-api-key'] ?? (req.query as { key?: string }).key;
    if (typeof key !== 'string' || key.length < 8) {
      return reply.code(403).send({
        error: {
          code: 403,
          message: "Method doesn't allow unregistered callers. Please use an API key.",
          status: 'PERMISSION_DENIED',
        },
      });
    }
    let body: { contents?: Array<{ role?: string; parts?: Array<{ text?: unknown }> }>; tools?: unknown[] };
    try {
      body = JSON.parse(String(req.body)) as typeof body;
    } catch {
      return reply
        .code(400)
        .send({ error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' } });
    }
    const user = body.contents?.filter((c) => (c.role ?? 'user') === 'user').at(-1);
    const prompt = (user?.parts ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
    const d = await sim.gate('gemini', prompt, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) {
      return reply.code(429).send({
        error: {
          code: 429,
          message: 'Resource has been exhausted (e.g. check quota).',
          status: 'RESOURCE_EXHAUSTED',
        },
      });
    }
    const topic = sim.clean(prompt);
    const meta = {
      usageMetadata: { promptTokenCount: 14, candidatesTokenCount: 40, totalTokenCount: 54 },
      modelVersion: model,
      responseId: `sim-${sim.hash(topic).toString(16)}`,
    };
    if (d.empty) return reply.send({ candidates: [{ finishReason: 'OTHER', index: 0 }], ...meta });

    const brands = landscapeOf(sim, {
      engine: 'ASSISTANT_A',
      country: requestCountry(req, body),
      topic,
      korean: isKorean(topic),
      shifts: d.shifts,
    });
    const sentences = [...fakeSentences(sim, topic, 3), ...(brands.sentence ? [brands.sentence] : [])];
    const text = sentences.join(' ');
    const grounded = JSON.stringify(body.tools ?? []).includes('google_search') && !d.nosearch;
    const candidate: Record<string, unknown> = {
      content: { role: 'model', parts: [{ text }] },
      finishReason: 'STOP',
      index: 0,
    };
    if (grounded) {
      const base = `http://${req.headers.host ?? '127.0.0.1'}${req.url.slice(0, req.url.indexOf('/v1beta'))}`;
      candidate.groundingMetadata = groundingFor(sim, topic, sentences, base, brands);
    }
    return reply.send({ candidates: [candidate], ...meta });
  });

  // A wildcard, not a `:token` parameter: real tokens run to hundreds of characters, past Fastify's parameter limit.
  app.get<{ Params: { '*': string } }>('/grounding-api-redirect/*', async (req, reply) => {
    const url = decodeToken(req.params['*']);
    if (!url)
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(
          '<!DOCTYPE html><title>Error 404 (Not Found)</title><p>The requested URL was not found on this server.</p>',
        );
    return reply
      .code(302)
      .header('location', url)
      .type('text/html; charset=utf-8')
      .send(`<HTML><BODY><A HREF="${url}">here</A></BODY></HTML>`);
  });
}

/**
 * Supports per sentence: bytes `[start, end)` of the joined text; chunk 0 cited twice, 1 and 2 together (chunk 2 the
 * first brand's own site when the answer cites it); the brands' sentence grounded on nothing.
 */
function groundingFor(
  sim: SimContext,
  topic: string,
  sentences: string[],
  base: string,
  brands: Landscape,
): Record<string, unknown> {
  const cites = withOwnSite(fakeCitations(sim, topic, 3, 'ASSISTANT_A'), brands);
  // The brands' sentence, when there is one, is grounded on nothing: no support.
  const chunkSets = [[0], [1, 2], [0], []];
  const supports: unknown[] = [];
  let offset = 0;
  sentences.forEach((s, i) => {
    if (i > 0) offset += 1; // the joining space
    const segment: Record<string, unknown> = { endIndex: offset + bytes(s), text: s };
    if (offset > 0) segment.startIndex = offset; // proto3 JSON omits a zero start
    if (chunkSets[i]?.length === 0) {
      offset += bytes(s);
      return;
    }
    supports.push({
      segment,
      groundingChunkIndices: chunkSets[i] ?? [0],
      confidenceScores: (chunkSets[i] ?? [0]).map(() => 0.9),
    });
    offset += bytes(s);
  });
  return {
    webSearchQueries: [topic],
    searchEntryPoint: {
      renderedContent: `<style>.container{display:flex}</style><div class="container"><a class="chip" href="https://www.google.com/search?q=${encodeURIComponent(topic)}">${escapeHtml(topic)}</a></div>`,
    },
    // The last chunk is a page the search returned that no support cites.
    groundingChunks: [...cites, { url: `https://consulted.example.net/${sim.hash(topic).toString(16)}` }].map((c) => ({
      web: { uri: `${base}/grounding-api-redirect/${encodeToken(c.url)}`, title: new URL(c.url).hostname },
    })),
    groundingSupports: supports,
  };
}

function encodeToken(url: string): string {
  return REDIRECT_TOKEN_PREFIX + Buffer.from(url, 'utf8').toString('base64url');
}

function decodeToken(token: string): string | null {
  if (!token.startsWith(REDIRECT_TOKEN_PREFIX)) return null;
  const url = Buffer.from(token.slice(REDIRECT_TOKEN_PREFIX.length), 'base64url').toString('utf8');
  return /^https?:\/\/[^\s"<>]+$/.test(url) ? url : null;
}
