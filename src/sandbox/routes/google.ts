import type { FastifyInstance, FastifyReply } from 'fastify';
import { landscapeOf } from '../landscape/recommendations.js';
import { requestCountry } from '../request-country.js';
import type { SimContext } from '../sim-context.js';
import { pageLocale } from './google/content.js';
import { aiModePage, noResultsPage, serpPage, serverErrorPage, sorryPage } from './google/pages.js';
import { queryTopic, wantsScriptRender } from './google/query-topic.js';
import { aiModeScriptPage } from './google/script-pages.js';

const HTML = 'text/html; charset=UTF-8';
const error5xx = (reply: FastifyReply) => reply.code(503).type(HTML).send(serverErrorPage(503));

/** `sandbox:aio` forces an AI Overview, `sandbox:noaio` forbids one; otherwise about half of queries get one. */
const AIO_ON = /sandbox:aio\b/;
const AIO_OFF = /sandbox:noaio\b/;
/** `sandbox:products` / `sandbox:places` force a shopping unit / local pack; otherwise some queries get one. */
const PRODUCTS_ON = /sandbox:products\b/;
const PLACES_ON = /sandbox:places\b/;

/**
 * Google web search, AI Overview and AI Mode (docs/engines.md#google-search, #google-ai-mode): `GET /search`
 * with `q`, `hl`, `gl`, `start` and `udm=50`. Pages are generated from the query, in the fixtures' HTML
 * shapes. `sandbox:captcha` redirects to the sorry page (HTTP 429), `sandbox:empty` answers a no-results page
 * (AI Mode: a plain results page without the answer). Page 1 carries a text ad, and for some queries a
 * sponsored shopping unit and a local pack, in the real pages' markup. `sandbox:js` serves AI Mode with its answer
 * inserted by script (google/script-pages.ts), so only the browser transport sees it.
 */
export function registerSearchEngineA(app: FastifyInstance, sim: SimContext): void {
  app.get('/search', async (req, reply) => {
    const params = req.query as Record<string, string | undefined>;
    const query = (params.q ?? '').trim();
    if (!query) return reply.code(302).header('location', '/webhp').send();
    const aiMode = params.udm === '50';
    const d = await sim.gate(aiMode ? 'google-aimode' : 'google-web', query, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) {
      // Like Google: a 302 to /sorry/index, which answers 429 (relative, so it stays under this prefix).
      const cont = `http://${req.headers.host ?? 'www.google.com'}${req.url}`;
      return reply
        .code(302)
        .header('location', `sorry/index?continue=${encodeURIComponent(cont)}&q=EgQKz7KjGKKc0bIGIjB`)
        .send();
    }
    const topic = queryTopic(sim, query);
    const locale = pageLocale(params.hl, topic, requestCountry(req));
    const start = Math.max(0, Math.min(90, Number(params.start ?? 0) || 0));
    const page = Math.floor(start / 10) + 1;
    const brands = (engine: 'SEARCH_A' | 'AIMODE') => () =>
      landscapeOf(sim, { engine, country: requestCountry(req), topic, korean: locale.korean, shifts: d.shifts });
    reply.type(HTML);
    if (d.empty && !aiMode) return reply.send(noResultsPage(query, locale));
    if (aiMode && !d.empty)
      return reply.send(
        wantsScriptRender(query)
          ? aiModeScriptPage(sim, query, topic, locale, requestCountry(req))
          : aiModePage(sim, query, topic, locale, brands('AIMODE')()),
      );
    // AI Mode with `sandbox:empty` falls back to a plain results page, as where AI Mode is unavailable.
    const withAio = !aiMode && (AIO_ON.test(query) || (!AIO_OFF.test(query) && sim.hash(topic, 'aio') % 2 === 0));
    // The page's cards (docs/engines.md#google-page-cards): `sandbox:noproducts`, `sandbox:noads` and
    // `sandbox:noplaces` turn each kind off.
    const cards = {
      products: !d.noproducts && (PRODUCTS_ON.test(query) || sim.hash(topic, 'shopping') % 2 === 0),
      ads: !d.noads,
      places: !d.noplaces && (PLACES_ON.test(query) || sim.hash(topic, 'local') % 3 === 0),
    };
    return reply.send(serpPage(sim, { query, topic, page, locale, withAio, cards, brands: brands('SEARCH_A') }));
  });

  app.get('/sorry/index', async (req, reply) => {
    const cont = (req.query as Record<string, string | undefined>).continue ?? 'https://www.google.com/search';
    return reply.code(429).type(HTML).send(sorryPage(cont));
  });
}
