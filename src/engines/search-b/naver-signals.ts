import type { CheerioAPI } from 'cheerio';

/**
 * Page-level signals shared by every Naver surface (docs/engines.md#naver-web-results, #naver-blog-posts,
 * #naver-blocks): block/captcha pages, the legitimate "no results" message, and posts that cannot be read
 * anonymously.
 */

const BLOCK_PHRASES = ['비정상적인 검색', '비정상적인 접근', '자동입력 방지', '자동 입력 방지'];

/**
 * Containers whose text is user content (results, snippets, posts). A query or a post about
 * captchas would otherwise look like a block page, so block phrases are looked for outside them.
 */
const CONTENT_CONTAINERS =
  '#main_pack, .main_pack, .se-main-container, #postViewArea, .se_component_wrap, script, style, noscript';

/** Block or captcha page served instead of the answer (UPSTREAM_BLOCKED). */
export function isBlockPage($: CheerioAPI): boolean {
  const body = $('body').clone();
  body.find(CONTENT_CONTAINERS).remove();
  const text = collapse(body.text());
  return BLOCK_PHRASES.some((p) => text.includes(p));
}

/**
 * Elements the reader never sees. Result pages carry hidden templates with the same words as the
 * empty-result notice (the review filter's "검색결과가 없습니다. 옵션을 재선택 하시거나…" sits in a
 * `display: none` block on every VIEW section), so only visible text may say "no results".
 */
const HIDDEN =
  'script, style, noscript, template, [hidden], [aria-hidden="true"], ' +
  '[style*="display:none"], [style*="display: none"]';

/** The search's own "no results" message (a legitimate empty answer), in visible text only. */
export function isNoResultsPage($: CheerioAPI): boolean {
  const body = $('body').clone();
  body.find(HIDDEN).remove();
  const text = collapse(body.text());
  return text.includes('검색결과가 없습니다') || /에 대한 검색결과가 없/.test(text);
}

/** The integrated-search result container; its absence on a non-empty page means the layout moved. */
export function hasSearchContainer($: CheerioAPI): boolean {
  return $('#main_pack, .main_pack').length > 0;
}

export type UnreadableReason = 'private_or_deleted' | 'login_required';

const PRIVATE_PHRASES = [
  '존재하지 않는 게시물',
  '삭제되었거나',
  '삭제된 게시물',
  '비공개 글',
  '비공개 처리',
  '비공개 게시물',
  '접근 권한이 없',
];
const LOGIN_PHRASES = [
  '로그인이 필요',
  '로그인 후 이용',
  '멤버만 볼 수',
  '멤버에게만 공개',
  '멤버공개',
  '이웃공개',
  '서로이웃에게만',
];

/**
 * A Naver post page that says the post is private, deleted, or visible only after signing in.
 * Only called when no post body was found, so a post that merely mentions these words is not hit.
 */
export function unreadablePostReason($: CheerioAPI): UnreadableReason | null {
  const body = $('body').clone();
  body.find('script, style, noscript').remove();
  const text = collapse(body.text());
  // Private phrases first: every anonymous Naver page carries a header "로그인" link, so a login
  // hint alone must not win over an explicit "deleted or private" notice.
  if (PRIVATE_PHRASES.some((p) => text.includes(p))) return 'private_or_deleted';
  const loginForm = $('form[action*="nid.naver.com"]').length > 0;
  if (loginForm || LOGIN_PHRASES.some((p) => text.includes(p))) return 'login_required';
  return null;
}

export function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
