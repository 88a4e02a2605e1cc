/**
 * Shared page chrome of the simulated Naver (docs/engines.md#naver): the search header and tab bar, the
 * block/captcha page, the "no results" page and the 5xx page, in Naver's own wording.
 */

import { escapeHtml } from '../../../text/html-escape.js';

export type NaverTab = 'nexearch' | 'web' | 'ai';

const TABS: ReadonlyArray<[NaverTab, string, string]> = [
  ['nexearch', 'tab.nx.all', '통합'],
  ['ai', 'tab.ai.all', 'AI 탭'],
  ['web', 'tab.web.all', '웹문서'],
];

/** A search results page: header with the query, tab bar, and `#main_pack` holding `main`. */
export function searchShell(query: string, tab: NaverTab, main: string): string {
  const q = encodeURIComponent(query);
  const tabs = TABS.map(
    ([t, ssc, name]) =>
      `<a href="?ssc=${ssc}&amp;query=${q}" role="tab"${t === tab ? ' aria-selected="true"' : ''}>${name}</a>`,
  ).join('');
  const suffix = tab === 'ai' ? '네이버 AI 탭' : '네이버 검색';
  return `<!doctype html>
<html lang="ko">
<head><meta charset="utf-8"><title>${escapeHtml(query)} : ${suffix}</title></head>
<body>
<div id="wrap">
  <div id="header"><a href="https://www.naver.com/">NAVER</a>
    <form id="sform" action="/search.naver"><input id="nx_query" name="query" value="${escapeHtml(query)}"></form>
    <a class="link_login" href="https://nid.naver.com/nidlogin.login?mode=form">로그인</a></div>
  <div class="api_flicking_wrap">${tabs}</div>
  <div id="container"><div id="content">
  <div id="main_pack" class="main_pack">
${main}
  </div>
  </div></div>
</div>
</body>
</html>`;
}

/** Naver's legitimate empty answer. */
export function noResultsPage(query: string, tab: NaverTab): string {
  return searchShell(
    query,
    tab,
    `    <section class="sc_new"><div class="api_noresult_wrap"><div class="not_found02">
      <p class="dsc"><em>'${escapeHtml(query)}'</em>에 대한 검색결과가 없습니다.</p>
      <ul class="dsc_list"><li>단어의 철자가 정확한지 확인해 보세요.</li><li>검색어의 단어 수를 줄이거나, 보다 일반적인 검색어로 다시 검색해 보세요.</li></ul>
    </div></div></section>`,
  );
}

/** The anti-abuse interstitial ("비정상적인 검색" + "자동입력 방지" captcha), served with HTTP 200. */
export function blockPage(): string {
  return `<!doctype html>
<html lang="ko">
<head><meta charset="utf-8"><title>네이버</title></head>
<body>
<div class="error_wrap">
  <h1 class="logo"><a href="https://www.naver.com/">NAVER</a></h1>
  <div class="error_content">
    <h2 class="error_title">보안 확인</h2>
    <p class="error_dsc">고객님의 네트워크에서 비정상적인 검색 요청이 감지되어 일시적으로 검색 서비스 이용이 제한되었습니다.</p>
    <p class="error_dsc">서비스를 계속 이용하시려면 아래의 자동입력 방지 문자를 입력해 주세요.</p>
    <form action="/search.naver" method="get" class="captcha_form">
      <img src="https://captcha.naver.com/nhncaptchav4.gif?key=sandbox" alt="자동입력 방지 문자">
      <input type="text" name="captcha"><button type="submit">확인</button>
    </form>
  </div>
</div>
</body>
</html>`;
}

export function serverErrorPage(): string {
  return `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><title>네이버</title></head>
<body><div class="error_wrap"><h2>일시적인 오류입니다.</h2><p>잠시 후 다시 시도해 주세요.</p></div></body></html>`;
}
