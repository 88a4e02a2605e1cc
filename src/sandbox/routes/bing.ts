import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { fakeCitations, fakeSentences } from '../text-gen.js';
import { escapeHtml } from '../../text/html-escape.js';

const error5xx = (reply: FastifyReply) =>
  reply
    .code(500)
    .type('text/html; charset=utf-8')
    .send('<!DOCTYPE html><html><head><title>Error</title></head><body><h1>Internal Server Error</h1></body></html>');

const PER_PAGE = 10;

/**
 * Bing `/search` (docs/engines.md#bing-request, #bing-results, #bing-blocks): deterministic results from `q`,
 * honouring `first`, `cc` and `setlang`.
 */
export function registerBing(app: FastifyInstance, sim: SimContext): void {
  app.get('/search', async (req, reply) => {
    const params = req.query as Record<string, string | undefined>;
    const q = params.q ?? '';
    const d = await sim.gate('bing', q, reply, error5xx);
    if (!d) return reply;
    const html = reply.type('text/html; charset=utf-8');
    // Bing's interstitial comes with HTTP 200, like a normal page.
    if (d.captcha) return html.send(captchaPage());
    const lang = (params.setlang ?? 'en').slice(0, 2).toLowerCase();
    const topic = sim.clean(q);
    if (d.empty) return html.send(page(q, lang, '', noResults(topic, lang)));
    const first = Math.max(1, Number(params.first) || 1);
    const cc = (params.cc ?? 'US').toUpperCase();
    return html.send(
      page(q, lang, countText(sim, topic, first, lang), resultItems(sim, topic, first, cc) + pager(q, first)),
    );
  });
}

function resultItems(sim: SimContext, topic: string, first: number, cc: string): string {
  const cites = fakeCitations(sim, topic, first + PER_PAGE - 1).slice(first - 1);
  const sentences = fakeSentences(sim, topic, first + PER_PAGE - 1).slice(first - 1);
  // The market reorders a page, as a real market would rank differently.
  const shift = sim.hash(topic, `cc:${cc}`) % cites.length;
  const order = cites.map((_, i) => (i + shift) % cites.length);
  const ad = `<li class="b_ad b_adTop"><ul><li><div class="b_title"><h2><a href="https://www.bing.com/aclk?ld=e8sim&u=aHR0cHM6Ly9hZHMuZXhhbXBsZS5jb20v">Sponsored: ${escapeHtml(topic)} deals</a></h2></div><div class="b_caption"><p>Ad · Best prices for ${escapeHtml(topic)}</p></div></li></ul></li>`;
  const items = order.map((i, rank) => {
    const c = cites[i] as { url: string; title: string };
    const host = new URL(c.url).hostname;
    const wrapped = `https://www.bing.com/ck/a?!&&p=sim${(first + rank).toString(16)}&u=a1${Buffer.from(c.url, 'utf8').toString('base64url')}&ntb=1`;
    return (
      `<li class="b_algo" data-tag="" data-id="SERP.${5000 + first + rank}">` +
      `<div class="b_tpcn"><a class="tilk" href="${escapeHtml(c.url)}"><div class="tpic">` +
      `</div><div class="tptxt"><div class="tptt">${escapeHtml(host)}</div>` +
      `<div class="b_attribution"><cite>https://${escapeHtml(host)} › ${escapeHtml(new URL(c.url).pathname.slice(1))}</cite></div></div></a></div>` +
      `<h2><a href="${escapeHtml(wrapped)}" h="ID=SERP,${5000 + first + rank}.1">${escapeHtml(c.title)}</a></h2>` +
      `<div class="b_caption"><p class="b_lineclamp2">` +
      `<span class="algoSlug_icon" data-priority="2">Web</span>${escapeHtml(sentences[i] ?? '')}</p></div></li>`
    );
  });
  const related =
    `<li class="b_ans"><h2>Related searches for ${escapeHtml(topic)}</h2><ul class="b_vList"><li>` +
    `<a href="/search?q=${encodeURIComponent(`${topic} review`)}">${escapeHtml(topic)} review</a></li></ul></li>`;
  return ad + items.join('') + related;
}

function countText(sim: SimContext, topic: string, first: number, lang: string): string {
  const total = (100_000 + (sim.hash(topic, 'total') % 9_000_000)).toLocaleString('en-US');
  if (first === 1) return lang === 'ko' ? `결과 ${total}개` : `About ${total} results`;
  const range = `${first}-${first + PER_PAGE - 1}`;
  return lang === 'ko' ? `${total}개 결과 중 ${range}` : `${range} of ${total} results`;
}

function pager(q: string, first: number): string {
  const next = first + PER_PAGE;
  const page = (next - 1) / PER_PAGE + 1;
  const form = page === 2 ? 'PERE' : `PERE${page - 2}`;
  return (
    `<li class="b_pag"><nav role="navigation" aria-label="More results"><ul class="sb_pagF"><li>` +
    `<a class="sb_pagN" href="/search?q=${encodeURIComponent(q)}&amp;first=${next}&amp;FORM=${form}">Next</a>` +
    `</li></ul></nav></li>`
  );
}

function noResults(topic: string, lang: string): string {
  const heading =
    lang === 'ko'
      ? `<strong>${escapeHtml(topic)}</strong>에 대한 검색 결과가 없습니다.`
      : `There are no results for <strong>${escapeHtml(topic)}</strong>`;
  return (
    `<li class="b_no"><h1>${heading}</h1><ul><li>` +
    `<span>Check your spelling or try different keywords</span></li></ul></li>`
  );
}

function page(q: string, lang: string, count: string, items: string): string {
  return (
    `<!DOCTYPE html><html lang="${escapeHtml(lang)}" dir="ltr"><head>` +
    `<meta charset="utf-8"><title>${escapeHtml(q)} - Search</title></head><body>` +
    `<header id="b_header"><form action="/search" id="sb_form">` +
    `<input id="sb_form_q" name="q" value="${escapeHtml(q)}"></form></header>` +
    `<main aria-label="Search Results"><div id="b_content">` +
    `<div id="b_tween">${count ? `<span class="sb_count">${count}</span>` : ''}</div>` +
    `<ol id="b_results" role="main">${items}</ol></div></main></body></html>`
  );
}

function captchaPage(): string {
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Bing</title></head><body><div id="b_content">' +
    '<div id="b_captcha" class="captcha"><h1 class="captcha_header">One last step</h1>' +
    '<p>Please solve the challenge below to continue.</p>' +
    '<p class="captcha_text">Verify you are human by entering the characters you see.</p>' +
    '<form method="post" action="/challenge/verify"><img class="captcha_img" alt="" src="/challenge/image?id=sim">' +
    '<input name="captcha_answer" type="text"></form>' +
    '</div></div></body></html>'
  );
}
