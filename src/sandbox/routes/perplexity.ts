import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { landscapeOf, withOwnSite } from '../landscape/recommendations.js';
import { requestCountry } from '../request-country.js';
import { fakeCitations, fakeSentences, isKorean } from '../text-gen.js';

const error5xx = (reply: FastifyReply) =>
  reply
    .code(503)
    .send({ error: { message: 'Service temporarily unavailable', type: 'server_error', code: 'overloaded' } });

/**
 * Perplexity Sonar `/chat/completions` (docs/engines.md#perplexity-sonar), answering deterministically from
 * the prompt.
 */
export function registerAnswerEngineA(app: FastifyInstance, sim: SimContext): void {
  app.post('/chat/completions', async (req, reply) => {
    if (!/^Bearer \S+/.test(String(req.headers.authorization ?? ''))) {
      return reply
        .code(401)
        .send({ error: { message: 'Invalid API key', type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    let body: { messages?: Array<{ role?: string; content?: string }>; web_search_options?: unknown };
    try {
      body = JSON.parse(String(req.body)) as typeof body;
    } catch {
      return reply.code(400).send({ error: { message: 'Invalid JSON', type: 'invalid_request_error' } });
    }
    const prompt = body.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const d = await sim.gate('perplexity', prompt, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) {
      return reply
        .code(429)
        .send({ error: { message: 'Rate limit exceeded', type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
    }
    const topic = sim.clean(prompt);
    const brands = d.empty
      ? null
      : landscapeOf(sim, {
          engine: 'ANSWER_ENGINE_A',
          country: requestCountry(req, body),
          topic,
          korean: isKorean(topic),
          shifts: d.shifts,
        });
    const searched = !d.empty && !d.nosearch;
    const cites = searched ? withOwnSite(fakeCitations(sim, topic, 3, 'ANSWER_ENGINE_A'), brands) : [];
    const sentences = fakeSentences(sim, topic, 3);
    let content = d.empty
      ? ''
      : searched
        ? `${sentences[0]} [2]\n\n${sentences[1]} [1][3]\n\n${sentences[2]} [2]`
        : sentences.join('\n\n');
    // One more result the search returned and the answer does not cite, as real answers have.
    const results = searched
      ? [
          ...cites,
          { title: `${topic} — further reading`, url: `https://consulted.example.net/${sim.hash(topic).toString(16)}` },
        ]
      : [];
    if (brands?.sentence) content += `\n\n${brands.sentence}`;
    return reply.send({
      id: `sim-${sim.hash(topic).toString(16)}`,
      model: 'sonar',
      created: 1767225600,
      object: 'chat.completion',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
      citations: cites.map((c) => c.url),
      search_results: results.map((c) => ({ title: c.title, url: c.url, date: null })),
      usage: { prompt_tokens: 12, completion_tokens: 40, total_tokens: 52 },
    });
  });
}
