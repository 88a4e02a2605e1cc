import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { parseDirectives } from '../../directives.js';
import type { SimContext } from '../../sim-context.js';
import { briefingChunks, integratedDocument, integratedPage, naverLandscape, wantsBriefing } from './search-pages.js';

const SCRIPT_RENDER = /sandbox:js\b/;
const SCRIPT_DIRECTIVE = /(?<!\s)\s*sandbox:js\b/g;
/** Pause between the two streamed parts of the briefing. */
const STREAM_GAP_MS = 150;

/** `sandbox:js`: the AI briefing arrives by script after the page loads, so only a browser sees it. */
export function wantsScriptRender(query: string): boolean {
  return SCRIPT_RENDER.test(query);
}

/** The query without `sandbox:js`, so the directive changes the delivery, not the answer. */
export function withoutScriptDirective(query: string): string {
  return query.replace(SCRIPT_DIRECTIVE, '');
}

/**
 * Integrated search with a lazily loaded AI briefing (docs/engines.md#naver-ai-briefing: "it may load lazily after
 * the first paint"): the HTML holds the results and an empty briefing slot; a script fetches the
 * briefing 200-400 ms after load and inserts it as it streams in (two parts). Over plain HTTP the
 * page has results but no briefing, which the parser reads as NO_ANSWER.
 */
export function integratedScriptPage(sim: SimContext, topic: string, query: string): string {
  if (!wantsBriefing(topic))
    return integratedPage(sim, topic, () =>
      naverLandscape(sim, 'SEARCH_B_AI_BRIEF', topic, parseDirectives(query).shifts),
    );
  // The query as asked (less `sandbox:js`): a `sandbox:shift` in it applies to the streamed briefing too.
  const src = `ai-briefing?${new URLSearchParams({ query }).toString()}`;
  const delayMs = 200 + (sim.hash(topic, 'brief-js-delay') % 201);
  const script = `<script>
(function () {
  var slot = document.querySelector('.sp_ai_briefing');
  setTimeout(function () {
    fetch(${JSON.stringify(src).replace(/</g, '\\u003c')}).then(function (res) {
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var html = '';
      function pump() {
        return reader.read().then(function (part) {
          if (part.done) { slot.removeAttribute('aria-busy'); return; }
          html += decoder.decode(part.value, { stream: true });
          slot.innerHTML = html;
          return pump();
        });
      }
      return pump();
    });
  }, ${delayMs});
})();
</script>`;
  return integratedDocument(
    sim,
    topic,
    '    <section class="sc_new sp_ai_briefing" aria-busy="true"></section>',
    script,
  );
}

/** The briefing stream the script-rendered page fetches: `GET /ai-briefing?query=`. */
export function registerNaverScriptRoutes(app: FastifyInstance, sim: SimContext): void {
  app.get('/ai-briefing', async (req, reply) => {
    const query = withoutScriptDirective((req.query as Record<string, string | undefined>).query ?? '');
    const topic = sim.clean(query);
    return reply
      .type('text/html; charset=UTF-8')
      .header('cache-control', 'no-store')
      .send(
        Readable.from(
          streamed(
            briefingChunks(sim, topic, naverLandscape(sim, 'SEARCH_B_AI_BRIEF', topic, parseDirectives(query).shifts)),
          ),
        ),
      );
  });
}

async function* streamed(chunks: readonly string[]): AsyncGenerator<Buffer> {
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0) await sleep(STREAM_GAP_MS);
    yield Buffer.from(chunk, 'utf8');
  }
}
