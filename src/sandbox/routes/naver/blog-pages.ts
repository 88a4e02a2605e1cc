import type { SimContext } from '../../sim-context.js';
import { fakeSentences } from '../../text-gen.js';
import { escapeHtml } from '../../../text/html-escape.js';

/**
 * Simulated mobile blog posts (m.blog.naver.com, docs/engines.md#naver-blog-posts) in SmartEditor ONE markup,
 * generated from the post ids, plus the "private or deleted" and sign-in notices.
 */

const TOPICS = ['서울 맛집', '제주 여행 코스', '캠핑 장비', '홈카페 레시피', '주말 등산 코스', '아이와 가볼 만한 곳'];

function mobileShell(title: string, body: string): string {
  return `<!doctype html>
<html lang="ko">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta property="og:title" content="${escapeHtml(title)}"><title>${escapeHtml(title)} : 네이버 블로그</title></head>
<body>
<div id="ct" class="post_ct">
  <div class="blog_header"><a href="https://m.blog.naver.com/">블로그</a>
    <a class="link_login" href="https://nid.naver.com/nidlogin.login?url=https%3A%2F%2Fm.blog.naver.com%2F">로그인</a></div>
${body}
</div>
</body>
</html>`;
}

function image(src: string, caption: string, w: number, h: number): string {
  const data = escapeHtml(
    JSON.stringify({ src: `${src}?type=w773`, originalWidth: String(w), originalHeight: String(h) }),
  );
  return (
    `<div class="se-component se-image se-l-default">` +
    `<div class="se-component-content"><div class="se-section se-section-image">
      <div class="se-module se-module-image"><a class="se-module-image-link" data-linkdata="${data}">
        <img class="se-image-resource" src="${src}?type=w80_blur" data-lazy-src="${src}?type=w773" alt=""></a></div>
      <div class="se-module se-module-text se-caption">` +
    `<p class="se-text-paragraph"><span>${escapeHtml(caption)}</span></p></div>
    </div></div></div>`
  );
}

function textComponent(paragraphs: string[]): string {
  const ps = paragraphs.map((p) => `<p class="se-text-paragraph"><span>${escapeHtml(p)}</span></p>`).join('\n        ');
  return (
    `<div class="se-component se-text se-l-default">` +
    `<div class="se-component-content"><div class="se-section se-section-text">
      <div class="se-module se-module-text">
        ${ps}
      </div></div></div></div>`
  );
}

/** A public post: title, author and date header, text, a section title, two images and a quote. */
export function blogPostPage(sim: SimContext, blogId: string, logNo: string): string {
  const h = sim.hash(`${blogId}/${logNo}`, 'post');
  const topic = TOPICS[h % TOPICS.length] as string;
  const title = `${topic} 정리`;
  const [s1, s2, s3, s4] = fakeSentences(sim, `${topic}`, 4) as [string, string, string, string];
  const img = `https://postfiles.pstatic.net/MjAyNj${(h % 100000).toString(36)}/${blogId}_${logNo.slice(-4)}`;
  const date = `2026. ${(h % 12) + 1}. ${(h % 28) + 1}. 10:30`;
  const body =
    `  <div id="viewTypeSelector" class="post_view"><div class="se-viewer se-theme-default">
    <div class="se-component se-documentTitle"><div class="se-component-content">` +
    `<div class="se-section se-section-documentTitle">
      <div class="se-module se-module-text se-title-text">` +
    `<p class="se-text-paragraph"><span>${escapeHtml(title)}</span></p></div></div></div>
      <div class="blog_authorArea"><span class="nick">${escapeHtml(blogId)}</span>` +
    `<p class="blog_date">${date}</p></div></div>
    <div class="se-main-container">
    ${textComponent([s1, '\u200b', s2])}
    <div class="se-component se-sectionTitle"><div class="se-component-content">` +
    `<div class="se-section se-section-sectionTitle">
      <div class="se-module se-module-text"><p class="se-text-paragraph">` +
    `<span>${escapeHtml(topic)} 핵심 포인트</span></p></div></div></div></div>
    ${image(`${img}_1.jpg`, `${topic} 사진`, 1200, 800)}
    ${textComponent([s3])}
    ${image(`${img}_2.jpg`, '', 900, 1200)}
    <div class="se-component se-quotation"><div class="se-component-content">` +
    `<div class="se-section se-section-quotation"><blockquote>
      <div class="se-module se-module-text se-quote"><p class="se-text-paragraph">` +
    `<span>${escapeHtml(s4)}</span></p></div></blockquote></div></div></div>
    </div>
  </div></div>`;
  return mobileShell(title, body);
}

/** What m.blog shows for a private or deleted post (HTTP 200). */
export function privatePostPage(): string {
  return mobileShell(
    '네이버 블로그',
    `  <div class="error_content"><h2 class="error_title">비공개 글이거나 존재하지 않는 게시물입니다.</h2>
    <p class="error_dsc">삭제되었거나 다른 페이지로 변경되었습니다. 주소를 다시 확인해 주세요.</p></div>`,
  ).replace('class="post_ct"', 'class="error_ct"');
}

/** A neighbours-only post asks an anonymous visitor to sign in. */
export function neighboursOnlyPage(): string {
  return mobileShell(
    '네이버 블로그',
    `  <div class="error_content"><h2 class="error_title">이웃공개 글입니다.</h2>
    <p class="error_dsc">이 글은 이웃에게만 공개되어 로그인이 필요합니다.</p>
    <form action="https://nid.naver.com/nidlogin.login" method="get"><button type="submit">로그인</button></form></div>`,
  );
}
