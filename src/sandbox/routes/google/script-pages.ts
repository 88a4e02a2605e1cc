import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { parseDirectives } from '../../directives.js';
import { landscapeOf } from '../../landscape/recommendations.js';
import type { SimContext } from '../../sim-context.js';
import { pageLocale, type PageLocale } from './content.js';
import { aiModeAnswerChunks, aiModeDocument } from './pages.js';
import { queryTopic } from './query-topic.js';
import { escapeHtml } from '../../../text/html-escape.js';

/** Pause between the two streamed parts of an answer, as a generating model pauses. */
const STREAM_GAP_MS = 150;

/**
 * AI Mode as the real page delivers it (docs/engines.md#google-ai-mode): the HTML holds the turn with a
 * "Thinking" placeholder, and a script fetches the answer from `/async/folwr` 200-400 ms after load
 * and inserts it as it streams in (two parts). A plain HTTP client sees only the placeholder, which
 * the parser reads as an answer that never arrived.
 */
export function aiModeScriptPage(
  sim: SimContext,
  query: string,
  topic: string,
  locale: PageLocale,
  country: string,
): string {
  const src = `async/folwr?${new URLSearchParams({ q: query, hl: locale.hl, gl: country.toLowerCase() }).toString()}`;
  const delayMs = 200 + (sim.hash(topic, 'aim-js-delay') % 201);
  const placeholder =
    `<div role="progressbar" aria-label="Thinking">` +
    `<span>${escapeHtml(locale.korean ? '생각하는 중…' : 'Thinking…')}</span></div>`;
  const script = `
<script>
(function () {
  var box = document.querySelector('[data-subtree="aimc"]');
  setTimeout(function () {
    fetch(${scriptString(src)}).then(function (res) {
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var html = '';
      function pump() {
        return reader.read().then(function (part) {
          if (part.done) { box.removeAttribute('aria-busy'); return; }
          html += decoder.decode(part.value, { stream: true });
          box.innerHTML = html;
          return pump();
        });
      }
      return pump();
    });
  }, ${delayMs});
})();
</script>`;
  return aiModeDocument(query, topic, locale, placeholder, { containerAttrs: ' aria-busy="true"', afterTurn: script });
}

/** A JS string literal that cannot end the script element. */
function scriptString(s: string): string {
  return JSON.stringify(s).replace(/</g, '\\u003c');
}

/** The answer stream the script-rendered AI Mode page fetches: `GET /async/folwr?q=&hl=`. */
export function registerGoogleScriptRoutes(app: FastifyInstance, sim: SimContext): void {
  app.get('/async/folwr', async (req, reply) => {
    const params = req.query as Record<string, string | undefined>;
    const query = (params.q ?? '').trim();
    const topic = queryTopic(sim, query);
    const country = /^[a-z]{2}$/i.test(params.gl ?? '') ? String(params.gl).toUpperCase() : 'US';
    const locale = pageLocale(params.hl, topic, country);
    const brands = landscapeOf(sim, {
      engine: 'AIMODE',
      country,
      topic,
      korean: locale.korean,
      shifts: parseDirectives(query).shifts,
    });
    const chunks = aiModeAnswerChunks(sim, topic, locale, brands);
    return reply
      .type('text/html; charset=UTF-8')
      .header('cache-control', 'no-store')
      .send(Readable.from(streamed(chunks)));
  });
}

async function* streamed(chunks: readonly string[]): AsyncGenerator<Buffer> {
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0) await sleep(STREAM_GAP_MS);
    yield Buffer.from(chunk, 'utf8');
  }
}
