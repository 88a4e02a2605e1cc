import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { blogPostPage, neighboursOnlyPage, privatePostPage } from './naver/blog-pages.js';
import { blockPage, noResultsPage, serverErrorPage, type NaverTab } from './naver/html.js';
import { integratedScriptPage, wantsScriptRender, withoutScriptDirective } from './naver/script-pages.js';
import { aiTabPage, integratedPage, naverLandscape, webTabPage } from './naver/search-pages.js';

const html = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=UTF-8').send(body);
const error5xx = (reply: FastifyReply) => html(reply, serverErrorPage(), 500);

type Query = Record<string, string | undefined>;

/** The tab a search URL asks for: `ssc=tab.<name>.all` (current) or `where=` (older links). */
function tabOf(q: Query): NaverTab {
  if (q.ssc === 'tab.ai.all') return 'ai';
  if (q.ssc === 'tab.web.all' || q.where === 'web') return 'web';
  return 'nexearch';
}

/**
 * Naver search (`/naver/search.naver`, docs/engines.md#naver-surfaces, #naver-web-results,
 * #naver-ai-briefing, #naver-ai-tab): integrated search with the AI briefing, the web documents tab (15 per
 * page from `start`) and the AI tab (`ssc=tab.ai.all`, an assumed URL). `sandbox:captcha` answers the block
 * page, `sandbox:empty` the no-results page; `sandbox:js` loads the AI briefing by script
 * (naver/script-pages.ts), so only a browser sees it.
 */
export function registerNaverSearch(app: FastifyInstance, sim: SimContext): void {
  app.get('/search.naver', async (req, reply) => {
    const q = req.query as Query;
    const query = q.query ?? '';
    const tab = tabOf(q);
    const start = Math.max(1, Number.parseInt(q.start ?? '1', 10) || 1);
    const d = await sim.gate(`naver:${tab}:${start}`, query, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) return html(reply, blockPage());
    const topic = sim.clean(withoutScriptDirective(query));
    if (d.empty || topic === '') return html(reply, noResultsPage(topic, tab));
    if (tab === 'web') return html(reply, webTabPage(sim, topic, start));
    if (tab === 'ai')
      return html(reply, aiTabPage(sim, topic, naverLandscape(sim, 'SEARCH_B_AI_TAB', topic, d.shifts)));
    return html(
      reply,
      wantsScriptRender(query)
        ? integratedScriptPage(sim, topic, withoutScriptDirective(query))
        : integratedPage(sim, topic, () => naverLandscape(sim, 'SEARCH_B_AI_BRIEF', topic, d.shifts)),
    );
  });
}

/**
 * Mobile blog posts (`/naver-blog/:blogId/:logNo` and `/naver-blog/PostView.naver`): a logNo
 * ending in 0000 is a private/deleted post, 9999 a neighbours-only post that asks to sign in.
 */
export function registerNaverBlog(app: FastifyInstance, sim: SimContext): void {
  const serve = async (reply: FastifyReply, blogId: string, logNo: string) => {
    if (!/^\d+$/.test(logNo)) return html(reply, privatePostPage(), 404);
    const d = await sim.gate('naver-blog', `${blogId}/${logNo}`, reply, error5xx);
    if (!d) return reply;
    if (logNo.endsWith('0000')) return html(reply, privatePostPage());
    if (logNo.endsWith('9999')) return html(reply, neighboursOnlyPage());
    return html(reply, blogPostPage(sim, blogId, logNo));
  };
  app.get('/PostView.naver', async (req, reply) => {
    const q = req.query as Query;
    return serve(reply, q.blogId ?? '', q.logNo ?? '');
  });
  app.get('/:blogId/:logNo', async (req, reply) => {
    const p = req.params as { blogId: string; logNo: string };
    return serve(reply, p.blogId, p.logNo);
  });
}
