import type { SimContext } from '../../sim-context.js';
import { type Landscape, landscapeOf, withOwnSite } from '../../landscape/recommendations.js';
import type { VisibilityShift } from '../../landscape/shifts.js';
import { fakeCitations, fakeSentences, isKorean } from '../../text-gen.js';
import { escapeHtml } from '../../../text/html-escape.js';
import { searchShell } from './html.js';

/**
 * Deterministic Naver result pages (docs/engines.md#naver-web-results, #naver-ai-briefing, #naver-ai-tab):
 * the same query and offset always give the same documents. The AI briefing and AI tab markup follow the
 * designs the parsers assume (their real markup is an unverified gap), so the sandbox exercises the
 * heading-text anchors.
 */

interface SimDoc {
  url: string;
  host: string;
  title: string;
  snippet: string;
}

const SITES = [
  'example.com',
  'example.org',
  'news.example.co.kr',
  'magazine.example.net',
  'docs.example.dev',
  'guide.example.kr',
];
const BLOGGERS = ['seoul_foodie', 'tripnote', 'dailycook', 'hanriver_eats', 'campinglife'];
const TITLE_WORDS = [
  '총정리',
  '완벽 가이드',
  '추천 모음',
  '솔직 후기',
  '비교 분석',
  '자주 묻는 질문',
  '최신 동향',
  '초보자 안내',
];

/** A blog logNo that never ends in 0000 or 9999 (those serve the private and sign-in pages). */
function simLogNo(sim: SimContext, seed: string): string {
  const n = (sim.hash(seed, 'logNo') % 900_000_000) + 100_000_000;
  const s = `223${n}`;
  return /(0000|9999)$/.test(s) ? `${s.slice(0, -1)}5` : s;
}

/** The web document ranked `n` (1-based) for a query: about a third are Naver blog posts. */
function simDoc(sim: SimContext, topic: string, n: number): SimDoc {
  const h = sim.hash(topic, `doc${n}`);
  const title = `${topic} ${TITLE_WORDS[h % TITLE_WORDS.length] as string} ${n}`;
  const snippet = fakeSentences(sim, topic, 4)[n % 4] as string;
  if (h % 3 === 0) {
    const blogId = BLOGGERS[(h >>> 3) % BLOGGERS.length] as string;
    return {
      url: `https://blog.naver.com/${blogId}/${simLogNo(sim, `${topic}#${n}`)}`,
      host: 'blog.naver.com',
      title,
      snippet,
    };
  }
  const host = SITES[(h >>> 3) % SITES.length] as string;
  const slug = encodeURIComponent(topic.toLowerCase().replace(/\s+/g, '-').slice(0, 40)) || 'topic';
  return { url: `https://${host}/${slug}/${n}`, host, title, snippet };
}

/** Naver's click tracker around a result link. */
function tracked(url: string, n: number): string {
  return `https://search.naver.com/p/crd/rd?m=1&px=512&py=340&ie=utf8&a=web_gen*w.tit&r=${n}&u=${encodeURIComponent(url)}`;
}

function webDocItem(doc: SimDoc, n: number): string {
  // Every third title link goes through the click tracker, as on the real page.
  const href = escapeHtml(n % 3 === 2 ? tracked(doc.url, n) : doc.url);
  return (
    `      <div class="fds-web-doc-root fds-web-normal-doc-root" data-url="${escapeHtml(doc.url)}">
        <div class="sds-comps-profile">
          <a href="https://${doc.host}"><span class="sds-comps-text sds-comps-text-type-body2">${doc.host}</span></a>
          <a href="https://keep.naver.com/?svcCode=web&amp;url=${encodeURIComponent(doc.url)}">Keep에 저장</a>
        </div>
        <a href="${href}" nocr="1"><span class="sds-comps-text ` +
    `sds-comps-text-type-headline1">${escapeHtml(doc.title)}</span></a>
        <a href="${href}"><span class="sds-comps-text sds-comps-text-type-body1">${escapeHtml(doc.snippet)}</span></a>
      </div>`
  );
}

const POWERLINK = `    <section class="sc_new sp_power" id="power_link_body">
      <h2 class="api_title">파워링크</h2>
      <ul class="lst_type"><li><a href="https://ader.naver.com/v1/sandbox?u=https%3A%2F%2Fad.example.com%2F">광고 · 지금 가입하면 첫 달 무료</a></li></ul>
    </section>`;

/** The web documents tab: 15 results from `start` (1, 16, 31, ...), a power-link ad block on top. */
export function webTabPage(sim: SimContext, topic: string, start: number): string {
  const items = Array.from({ length: 15 }, (_, i) => webDocItem(simDoc(sim, topic, start + i), start + i)).join('\n');
  const next = `?ssc=tab.web.all&amp;query=${encodeURIComponent(topic)}&amp;start=${start + 15}`;
  return searchShell(
    topic,
    'web',
    `${POWERLINK}
    <section class="sc_new sp_nweb"><h2 class="api_title">웹문서</h2><div class="fds-web-list">
${items}
    </div></section>
    <div class="sc_page"><a href="${next}" class="btn_next">다음페이지</a></div>`,
  );
}

/** Navigational queries (a site's name or address) get no briefing on the real page either. */
export function wantsBriefing(topic: string): boolean {
  return !/(홈페이지|바로가기|로그인)$/.test(topic) && !/^[\w-]+(\.[\w-]+)+$/.test(topic);
}

interface Cite {
  url: string;
  title: string;
}

/** A Naver blog post plus three outside pages (each engine's own), cited by the generated answers. */
function cites(sim: SimContext, topic: string, engine: string): Cite[] {
  const h = sim.hash(topic, 'cited-blog');
  const blogId = BLOGGERS[h % BLOGGERS.length] as string;
  const blog = {
    url: `https://blog.naver.com/${blogId}/${simLogNo(sim, topic)}`,
    title: `${topic} ${TITLE_WORDS[h % TITLE_WORDS.length] as string}`,
  };
  return [blog, ...fakeCitations(sim, topic, 3, engine)];
}

function citeLink(c: Cite, n: number, tracker: boolean): string {
  const href = tracker ? `https://search.naver.com/p/crd/rd?m=1&a=ai.cite&u=${encodeURIComponent(c.url)}` : c.url;
  return `<a class="fds-cite" href="${escapeHtml(href)}"><span class="blind">출처</span>${n}</a>`;
}

/** The brands a Naver answer names: Naver serves Korea, so they are Korea's whatever the exit address. */
export function naverLandscape(
  sim: SimContext,
  engine: 'SEARCH_B_AI_BRIEF' | 'SEARCH_B_AI_TAB',
  topic: string,
  shifts: readonly VisibilityShift[],
): Landscape {
  return landscapeOf(sim, { engine, country: 'KR', topic, korean: isKorean(topic), shifts });
}

/** The paragraph naming the brands an answer recommends; '' for none. */
function brandsParagraph(brands: Landscape): string {
  return brands.sentence ? `\n          <p>${escapeHtml(brands.sentence)}</p>` : '';
}

function sourceCards(list: Cite[]): string {
  return list
    .map(
      (c) =>
        `<a href="${escapeHtml(c.url)}">` +
        `<span class="sds-comps-text sds-comps-text-type-headline2">${escapeHtml(c.title)}</span></a>`,
    )
    .join('\n          ');
}

/**
 * The inside of the AI briefing section in two parts, as it streams in (the heading and the first
 * paragraph, then the rest with the sources); the plain page has them joined.
 */
export function briefingChunks(sim: SimContext, topic: string, brands: Landscape): [opening: string, rest: string] {
  const c = withOwnSite(cites(sim, topic, 'SEARCH_B_AI_BRIEF'), brands);
  const named = brandsParagraph(brands);
  const [s1, s2, s3] = fakeSentences(sim, topic, 3) as [string, string, string];
  const opening = `
      <div class="api_subject_bx">
        <div class="fds-header"><h2 class="sds-comps-text sds-comps-text-type-headline1">AI 브리핑</h2>
          <span class="sds-comps-text sds-comps-text-type-body2">HyperCLOVA X 기반으로 생성된 답변입니다</span></div>
        <div class="fds-summary-body">
          <p class="sds-comps-text sds-comps-text-type-body1">${escapeHtml(s1)}${citeLink(c[0] as Cite, 1, true)}</p>`;
  const rest =
    `
          <p class="sds-comps-text sds-comps-text-type-body1">${escapeHtml(s2)}` +
    `${citeLink(c[1] as Cite, 2, false)}${citeLink(c[2] as Cite, 3, true)}</p>
          <ul><li>${escapeHtml(s3)}${citeLink(c[0] as Cite, 1, false)}</li></ul>${named}
        </div>
        <div class="fds-source-list"><strong class="sds-comps-text">출처</strong>
          ${sourceCards(c)}
          <a href="https://keep.naver.com/?svcCode=ai_brief">Keep에 저장</a>
        </div>
      </div>
    `;
  return [opening, rest];
}

/** The first web results of integrated search, below the briefing. */
function integratedWebSection(sim: SimContext, topic: string): string {
  const web = [1, 2, 3].map((n) => webDocItem(simDoc(sim, topic, n), n)).join('\n');
  return `    <section class="sc_new sp_nweb"><h2 class="api_title">웹문서</h2>\n${web}\n    </section>`;
}

/** Integrated search with a given briefing section (`briefingSection` empty for queries without one). */
export function integratedDocument(sim: SimContext, topic: string, briefingSection: string, afterMain = ''): string {
  const webSection = integratedWebSection(sim, topic);
  const page = searchShell(topic, 'nexearch', briefingSection ? `${briefingSection}\n${webSection}` : webSection);
  return afterMain ? page.replace('</body>', `${afterMain}\n</body>`) : page;
}

/** Integrated search: an AI briefing (for informational queries) above a few web results. */
export function integratedPage(sim: SimContext, topic: string, brands: () => Landscape): string {
  if (!wantsBriefing(topic)) return integratedDocument(sim, topic, '');
  return integratedDocument(
    sim,
    topic,
    `    <section class="sc_new sp_ai_briefing">${briefingChunks(sim, topic, brands()).join('')}</section>`,
  );
}

/** The AI tab (designed markup, see src/engines/search-b/ai-tab-parser.ts): a question and an answer turn. */
export function aiTabPage(sim: SimContext, topic: string, brands: Landscape): string {
  const c = withOwnSite(cites(sim, topic, 'SEARCH_B_AI_TAB'), brands);
  const named = brandsParagraph(brands);
  const [s1, s2, s3, s4] = fakeSentences(sim, topic, 4) as [string, string, string, string];
  const answer =
    `    <section class="fds-ai-tab-root" data-tab="ai"><div class="fds-ai-tab-thread">
      <div class="fds-ai-tab-turn" data-turn-role="user"><p class="fds-ai-tab-question">${escapeHtml(topic)}</p></div>
      <div class="fds-ai-tab-turn" data-turn-role="assistant">
        <div class="fds-ai-tab-answer-head"><h2 class="sds-comps-text sds-comps-text-type-headline1">AI 답변</h2>` +
    `<span class="sds-comps-text">HyperCLOVA X</span></div>
        <div class="fds-ai-tab-answer-body">
          <p>${escapeHtml(s1)}${citeLink(c[1] as Cite, 1, true)}</p>
          <h3>핵심 정리</h3>
          <ol><li>${escapeHtml(s2)}${citeLink(c[0] as Cite, 2, false)}</li>` +
    `<li>${escapeHtml(s3)}${citeLink(c[1] as Cite, 1, false)}</li></ol>
          <p>${escapeHtml(s4)}${citeLink(c[2] as Cite, 3, false)}</p>${named}
        </div>
        <div class="fds-ai-tab-references"><strong class="sds-comps-text">참고 자료</strong>
          ${sourceCards(c)}
        </div>
      </div>
    </div></section>`;
  return searchShell(topic, 'ai', answer);
}
