import type { FastifyInstance, FastifyReply } from 'fastify';
import { parseDirectives } from '../directives.js';
import type { SimContext } from '../sim-context.js';
import { landscapeOf } from '../landscape/recommendations.js';
import { requestCountry } from '../request-country.js';
import { fakeCitations, fakeSentences, isKorean } from '../text-gen.js';
import { CLOUDFLARE_CHALLENGE } from './chatgpt.js';
import { escapeHtml } from '../../text/html-escape.js';
import { fakeProducts, sendSse, sseFrame } from './app-stream.js';

const error5xx = (reply: FastifyReply) =>
  reply
    .code(502)
    .type('text/html; charset=utf-8')
    .send(
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
    );

/**
 * The search page's script: it posts the query to the answer stream and renders what arrives, the source chips from
 * the web results and the answer's Markdown paragraphs with their numbered citations, as perplexity.ai does.
 */
const PAGE_SCRIPT = `
var q = new URLSearchParams(location.search).get('q') || '';
var box = document.querySelector('[data-testid="answer"]');
var chips = document.querySelector('[data-testid="sources"]');
var blocks = {}, results = [];
function esc(s) { return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'); }
function setAt(root, path, v, op) {
  var keys = path.split('/').slice(1), o = root;
  for (var i = 0; i < keys.length - 1; i++) { if (o[keys[i]] == null) o[keys[i]] = {}; o = o[keys[i]]; }
  var k = keys[keys.length - 1];
  if (Array.isArray(o) && k === '-') o.push(v); else o[k] = v;
}
function render() {
  var md = blocks.ask_text && blocks.ask_text.markdown_block;
  if (!md) return;
  var text = md.answer || (md.chunks || []).join('');
  box.innerHTML = text.split('\\n\\n').filter(function (p) { return p.trim(); }).map(function (p) {
    return '<p>' + esc(p).replace(/\\[(\\d+)\\]/g, function (m, n) {
      var r = results[Number(n) - 1];
      return r ? '<a class="citation" href="' + esc(r.url) + '" target="_blank"><span>' + n + '</span></a>' : '';
    }) + '</p>'; }).join('');
}
function onMessage(d) {
  (d.blocks || []).forEach(function (b) {
    var st = blocks[b.intended_usage] = blocks[b.intended_usage] || {};
    Object.keys(b).forEach(function (k) { if (/_block$/.test(k) && k !== 'diff_block') st[k] = b[k]; });
    if (b.diff_block) (b.diff_block.patches || []).forEach(function (p) {
      if (p.path === '') st[b.diff_block.field] = p.value;
      else setAt(st[b.diff_block.field] = st[b.diff_block.field] || {}, p.path, p.value, p.op);
    });
    if (b.web_result_block) {
      results = b.web_result_block.web_results;
      chips.innerHTML = results.map(function (r, i) { return '<a href="' + esc(r.url) + '" target="_blank"><span>' +
        (i + 1) + '</span><div data-testid="source-title">' + esc(r.name) + '</div></a>'; }).join('');
    }
  });
  render();
}
fetch('rest/sse/perplexity_ask', { method: 'POST', headers: { 'content-type': 'application/json',
  accept: 'text/event-stream' }, body: JSON.stringify({ query_str: q, params: { mode: 'concise',
  use_schematized_api: true, sources: ['web'] } }) }).then(function (res) {
  var reader = res.body.getReader(), decoder = new TextDecoder(), buf = '';
  function pump() {
    return reader.read().then(function (r) {
      if (r.done) return;
      buf += decoder.decode(r.value, { stream: true });
      var at;
      while ((at = buf.indexOf('\\n\\n')) >= 0) {
        var ev = buf.slice(0, at); buf = buf.slice(at + 2);
        if (ev.indexOf('event: message') !== 0) continue;
        var data = ev.split('\\n').filter(function (l) { return l.indexOf('data: ') === 0; })
          .map(function (l) { return l.slice(6); }).join('\\n');
        onMessage(JSON.parse(data));
      }
      return pump();
    });
  }
  return pump();
});
`;

/**
 * perplexity.ai (docs/engines.md#perplexity-app-stream): the search page (`/search?q=`), whose script posts the query
 * to the answer stream `/rest/sse/perplexity_ask` and renders the source chips and the answer with inline numbered
 * citations as the stream's blocks arrive. `sandbox:empty` streams an empty answer (the adapter reports NO_ANSWER when
 * its render budget runs out); `sandbox:captcha` answers the page with Cloudflare's challenge.
 */
export function registerPerplexityWeb(app: FastifyInstance, sim: SimContext): void {
  app.get('/search', async (req, reply) => {
    const q = String((req.query as Record<string, unknown>).q ?? '');
    const d = await sim.gate('perplexity-web', q, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) return reply.code(403).type('text/html; charset=utf-8').send(CLOUDFLARE_CHALLENGE);
    const topic = sim.clean(q);
    return reply.type('text/html; charset=utf-8').send(
      `<!DOCTYPE html><html><head><title>${escapeHtml(topic)} - Perplexity</title></head><body><main>
<h1>${escapeHtml(topic)}</h1><div data-testid="sources"></div>
<div data-testid="answer" class="prose dark:prose-invert"></div></main>
<script>${PAGE_SCRIPT}</script></body></html>`,
    );
  });

  app.post('/rest/sse/perplexity_ask', async (req, reply) => {
    let q = '';
    try {
      const body = JSON.parse(String(req.body)) as { query_str?: unknown };
      q = typeof body.query_str === 'string' ? body.query_str : '';
    } catch {
      return reply.code(400).send({ detail: 'Invalid JSON' });
    }
    // The page was gated already (the directives' failures answer the page itself).
    const d = parseDirectives(q);
    const topic = sim.clean(q);
    const brands = d.empty
      ? null
      : landscapeOf(sim, {
          engine: 'ANSWER_ENGINE_A',
          country: requestCountry(req),
          topic,
          korean: isKorean(topic),
          shifts: d.shifts,
        });
    return sendSse(reply, askStream(sim, topic, d, brands?.sentence ?? null), 60);
  });
}

/**
 * The answer as Perplexity streams it (docs/engines.md#perplexity-app-stream): a plan block with the searches, the web
 * results block (five: three cited, two only read), the `ask_text` block's Markdown grown by `diff_block` patches,
 * product cards for a shopping prompt, a last message `COMPLETED` with `final_sse_message`, then `end_of_stream`.
 */
function askStream(
  sim: SimContext,
  topic: string,
  d: ReturnType<typeof parseDirectives>,
  brandSentence: string | null,
): string[] {
  const frames: string[] = [];
  const message = (blocks: unknown[], final = false) =>
    frames.push(
      sseFrame(
        { status: final ? 'COMPLETED' : 'PENDING', ...(final ? { final_sse_message: true } : {}), blocks },
        'message',
      ),
    );
  const search = !d.nosearch && !d.empty;
  const results = search ? fakeCitations(sim, topic, 5, 'ANSWER_ENGINE_A') : [];
  if (search) {
    message([
      {
        intended_usage: 'pro_search_steps',
        plan_block: {
          progress: 'DONE',
          steps: [
            {
              step_type: 'SEARCH_WEB',
              search_web_content: {
                queries: [
                  { engine: 'web', query: topic },
                  { engine: 'web', query: `${topic} guide` },
                ],
              },
            },
          ],
        },
      },
    ]);
    message([
      {
        intended_usage: 'web_results',
        web_result_block: {
          progress: 'DONE',
          web_results: results.map((r) => ({ name: r.title, url: r.url, snippet: r.title })),
        },
      },
    ]);
  }
  const paragraphs = d.empty ? [] : answerParagraphs(sim, topic, search);
  if (brandSentence && !d.empty) paragraphs.push(brandSentence);
  message([
    {
      intended_usage: 'ask_text',
      diff_block: {
        field: 'markdown_block',
        patches: [{ op: 'replace', path: '', value: { progress: 'IN_PROGRESS', chunks: [] } }],
      },
    },
  ]);
  paragraphs.forEach((p, i) => {
    message([
      {
        intended_usage: 'ask_text',
        diff_block: {
          field: 'markdown_block',
          patches: [{ op: 'add', path: '/chunks/-', value: i === 0 ? p : `\n\n${p}` }],
        },
      },
    ]);
  });
  if (d.brokenstream) return frames;
  const blocks: unknown[] = [
    {
      intended_usage: 'ask_text',
      diff_block: {
        field: 'markdown_block',
        patches: [
          { op: 'replace', path: '/progress', value: 'DONE' },
          { op: 'add', path: '/answer', value: paragraphs.join('\n\n') },
        ],
      },
    },
  ];
  if (brandSentence && !d.noproducts)
    blocks.push({
      intended_usage: 'shopping_widget',
      shopping_block: {
        products: fakeProducts(sim, topic).map((p) => ({
          name: p.title,
          url: p.url,
          price: p.price,
          currency: p.currency,
          merchant: p.merchant,
          rating: p.rating,
        })),
      },
    });
  message(blocks, true);
  frames.push(sseFrame({}, 'end_of_stream'));
  return frames;
}

/** Paragraphs citing the results by number, [2] first: sources are numbered by first citation. */
function answerParagraphs(sim: SimContext, topic: string, cite: boolean): string[] {
  const [s0, s1, s2] = fakeSentences(sim, topic, 3);
  const c = (s: string) => (cite ? s : '');
  return [`${s0}${c('[2]')}`, `${s1}${c('[1][3]')}`, `${s2}${c('[2]')}`];
}
