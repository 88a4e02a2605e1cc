import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { landscapeOf } from '../landscape/recommendations.js';
import { requestCountry } from '../request-country.js';
import { fakeCitations, fakeSentences, isKorean } from '../text-gen.js';
import { CLOUDFLARE_CHALLENGE, scriptJson } from './chatgpt.js';
import { escapeHtml } from '../../text/html-escape.js';

const error5xx = (reply: FastifyReply) =>
  reply
    .code(502)
    .type('text/html; charset=utf-8')
    .send(
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
    );

/**
 * perplexity.ai's search page (`/search?q=`): the numbered source chips first, then the answer
 * streamed by script into `[data-testid="answer"]` with inline numbered citations. `sandbox:empty`
 * leaves the container empty (the adapter reports NO_ANSWER when its render budget runs out).
 */
export function registerPerplexityWeb(app: FastifyInstance, sim: SimContext): void {
  app.get('/search', async (req, reply) => {
    const q = String((req.query as Record<string, unknown>).q ?? '');
    const d = await sim.gate('perplexity-web', q, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) return reply.code(403).type('text/html; charset=utf-8').send(CLOUDFLARE_CHALLENGE);
    const topic = sim.clean(q);
    const cites = d.empty ? [] : fakeCitations(sim, topic, 3, 'ANSWER_ENGINE_A');
    const chunks = d.empty
      ? []
      : answerChunks(
          sim,
          topic,
          cites.map((c) => c.url),
        );
    const brands = d.empty
      ? null
      : landscapeOf(sim, {
          engine: 'ANSWER_ENGINE_A',
          country: requestCountry(req),
          topic,
          korean: isKorean(topic),
          shifts: d.shifts,
        });
    if (brands?.sentence) chunks.push(`<p>${escapeHtml(brands.sentence)}</p>`);
    const chips = cites
      .map(
        (c, i) =>
          `<a href="${escapeHtml(c.url)}" target="_blank"><span>${i + 1}</span>` +
          `<div data-testid="source-title">${escapeHtml(c.title)}</div></a>`,
      )
      .join('');
    return reply.type('text/html; charset=utf-8').send(
      `<!DOCTYPE html><html><head><title>${escapeHtml(topic)} - Perplexity</title></head><body><main>
<h1>${escapeHtml(topic)}</h1><div data-testid="sources">${chips}</div>
<div data-testid="answer" class="prose dark:prose-invert"></div></main>
<script>
var chunks = ${scriptJson(chunks)};
var box = document.querySelector('[data-testid="answer"]');
chunks.forEach(function (chunk, i) { setTimeout(function () { ` +
        `box.insertAdjacentHTML('beforeend', chunk); }, 120 * (i + 1)); });
</script></body></html>`,
    );
  });
}

/** Paragraphs citing the sources by number, [2] first: sources are numbered by first citation. */
function answerChunks(sim: SimContext, topic: string, urls: string[]): string[] {
  const [s0, s1, s2] = fakeSentences(sim, topic, 3).map(escapeHtml);
  const cite = (n: number) => {
    const url = urls[n - 1];
    return url ? `<a class="citation" href="${escapeHtml(url)}" target="_blank"><span>${n}</span></a>` : '';
  };
  return [`<p>${s0}${cite(2)}</p>`, `<p>${s1}${cite(1)}${cite(3)}</p>`, `<p>${s2}${cite(2)}</p>`];
}
