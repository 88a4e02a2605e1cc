import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { type Landscape, landscapeOf, withOwnSite } from '../landscape/recommendations.js';
import { requestCountry } from '../request-country.js';
import { fakeCitations, fakeSentences, isKorean, type FakeCitation } from '../text-gen.js';

/**
 * OpenAI Responses API `POST /v1/responses` with the hosted web_search tool (docs/engines.md#openai-responses):
 * JSON, or an event stream when `stream` is true. Annotation offsets are in code points, and the
 * answer starts with an emoji so a parser counting UTF-16 units misplaces its markers. Besides the
 * common directives, `sandbox:cut` ends the stream before `response.completed`.
 */
const CUT = /(?<!\s)\s*sandbox:cut\b/g;
const CREATED_AT = 1767225600;

const error5xx = (reply: FastifyReply) =>
  reply.code(500).send({
    error: {
      message: 'The server had an error while processing your request.',
      type: 'server_error',
      param: null,
      code: null,
    },
  });

type Annotation = { type: 'url_citation'; start_index: number; end_index: number; url: string; title: string };
type Json = Record<string, unknown>;

export function registerChatbotA(app: FastifyInstance, sim: SimContext): void {
  app.post('/v1/responses', async (req, reply) => {
    if (!/^Bearer \S{8,}/.test(String(req.headers.authorization ?? ''))) {
      return reply.code(401).send({
        error: {
          message: 'Incorrect API key provided.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    }
    let body: Json;
    try {
      body = JSON.parse(String(req.body)) as Json;
    } catch {
      return reply.code(400).send({
        error: {
          message: 'We could not parse the JSON body of your request.',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
    }
    const prompt = promptOf(body.input);
    const d = await sim.gate('openai', prompt, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) {
      return reply
        .code(429)
        .header('x-ratelimit-remaining-requests', '0')
        .send({
          error: {
            message: 'Rate limit reached for requests. Please try again later.',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        });
    }
    const topic = sim.clean(prompt).replace(CUT, '').trim();
    const brands = landscapeOf(sim, {
      engine: 'CHATBOT_A',
      country: requestCountry(req, body),
      topic,
      korean: isKorean(topic),
      shifts: d.shifts,
    });
    const response = buildResponse(sim, topic, body, d.empty, d.nosearch, brands);
    if (body.stream !== true) return reply.header('x-request-id', `req_${sim.hash(topic).toString(16)}`).send(response);

    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const events = streamEvents(response);
    const stopAt = /sandbox:cut\b/.test(prompt) ? Math.ceil(events.length / 2) : events.length;
    events.slice(0, stopAt).forEach((e, i) => {
      if (i === 2) reply.raw.write(': keep-alive\n\n');
      reply.raw.write(`event: ${e.type as string}\ndata: ${JSON.stringify(e)}\n\n`);
    });
    reply.raw.end();
    return reply;
  });
}

function promptOf(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  const texts: string[] = [];
  for (const m of input as Array<{ role?: unknown; content?: unknown }>) {
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') texts.push(m.content);
    else if (Array.isArray(m.content))
      for (const p of m.content as Array<{ text?: unknown }>) if (typeof p?.text === 'string') texts.push(p.text);
  }
  return texts.at(-1) ?? '';
}

const cpLen = (s: string) => Array.from(s).length;

/**
 * Three cited paragraphs in the model's style: `sentence ([site](url?utm_source=openai))`, and the brands it recommends
 * (the first one's site among the sources when it cites it).
 */
function answerWithCitations(
  sim: SimContext,
  topic: string,
  brands: Landscape,
): { text: string; annotations: Annotation[]; cites: FakeCitation[] } {
  const cites = withOwnSite(fakeCitations(sim, topic, 3, 'CHATBOT_A'), brands);
  const s = fakeSentences(sim, topic, 3);
  const [c0, c1, c2] = cites as [FakeCitation, FakeCitation, FakeCitation];
  const link = (c: FakeCitation) => ` ([${new URL(c.url).hostname}](${c.url}?utm_source=openai))`;
  const paragraphs: Array<[string, FakeCitation[]]> = [
    [`📌 ${s[0]}${link(c0)}`, [c0]],
    [`${s[1]}${link(c1)}`, [c1, c2]],
    [`${s[2]}${link(c0)}`, [c0]],
  ];
  if (brands.sentence) paragraphs.push([brands.sentence, []]);
  let text = '';
  const annotations: Annotation[] = [];
  for (const [para, refs] of paragraphs) {
    if (text) text += '\n\n';
    const start = cpLen(text);
    text += para;
    for (const c of refs)
      annotations.push({
        type: 'url_citation',
        start_index: start,
        end_index: cpLen(text),
        url: `${c.url}?utm_source=openai`,
        title: c.title,
      });
  }
  return { text, annotations, cites };
}

function buildResponse(
  sim: SimContext,
  topic: string,
  req: Json,
  empty: boolean,
  nosearch: boolean,
  brands: Landscape,
): Json {
  const id = sim.hash(topic).toString(16);
  const answer = empty
    ? { text: '', annotations: [], cites: [] }
    : nosearch
      ? { text: fakeSentences(sim, topic, 2).join(' '), annotations: [], cites: [] }
      : answerWithCitations(sim, topic, brands);
  const consulted = [...answer.cites.map((c) => c.url), ...(empty ? [] : [`https://consulted.example.net/${id}`])];
  const search = {
    type: 'web_search_call',
    id: `ws_${id}`,
    status: 'completed',
    action: { type: 'search', query: topic, sources: consulted.map((url) => ({ type: 'url', url })) },
  };
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: CREATED_AT,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: typeof req.model === 'string' ? req.model : 'gpt-5-mini',
    output: [
      ...(nosearch ? [] : [search]),
      {
        type: 'message',
        id: `msg_${id}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: answer.text, annotations: answer.annotations, logprobs: [] }],
      },
    ],
    tools: Array.isArray(req.tools) ? req.tools : [],
    usage: {
      input_tokens: 1200,
      output_tokens: 80,
      total_tokens: 1280,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

/** The typical event order of docs/engines.md#openai-responses, with annotations interleaved among the deltas. */
function streamEvents(response: Json): Json[] {
  const output = response.output as Json[];
  const search = output.find((o) => o.type === 'web_search_call');
  const message = output.find((o) => o.type === 'message') as Json & {
    content: [{ text: string; annotations: Annotation[] }];
  };
  const m = output.indexOf(message);
  const part = message.content[0];
  const events: Json[] = [];
  const push = (type: string, fields: Json) => events.push({ type, sequence_number: events.length, ...fields });
  const inProgress = { ...response, status: 'in_progress', output: [], usage: null };
  push('response.created', { response: inProgress });
  push('response.in_progress', { response: inProgress });
  if (search) {
    push('response.output_item.added', {
      output_index: 0,
      item: { type: 'web_search_call', id: search.id, status: 'in_progress' },
    });
    for (const t of ['in_progress', 'searching', 'completed'])
      push(`response.web_search_call.${t}`, { output_index: 0, item_id: search.id });
    push('response.output_item.done', { output_index: 0, item: search });
  }
  push('response.output_item.added', { output_index: m, item: { ...message, status: 'in_progress', content: [] } });
  const at = { item_id: message.id, output_index: m, content_index: 0 };
  push('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
  const cps = Array.from(part.text);
  let sent = 0;
  let nextAnnotation = 0;
  while (sent < cps.length) {
    const delta = cps.slice(sent, sent + 9).join('');
    sent = Math.min(cps.length, sent + 9);
    push('response.output_text.delta', { ...at, delta, logprobs: [] });
    while (
      nextAnnotation < part.annotations.length &&
      (part.annotations[nextAnnotation] as Annotation).end_index <= sent
    ) {
      push('response.output_text.annotation.added', {
        ...at,
        annotation_index: nextAnnotation,
        annotation: part.annotations[nextAnnotation],
      });
      nextAnnotation++;
    }
  }
  push('response.output_text.done', { ...at, text: part.text, logprobs: [] });
  push('response.content_part.done', { ...at, part });
  push('response.output_item.done', { output_index: m, item: message });
  push('response.completed', { response });
  return events;
}
