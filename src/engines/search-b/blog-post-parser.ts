import { cheerio, turndown as loadTurndown } from '../lazy-modules.js';
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import { blogImageOf, type BlogImage } from './blog-images.js';
import { collapse, isBlockPage, unreadablePostReason } from './naver-signals.js';

/** Which editor generation the post was written with (recorded in `raw`). */
type BlogPostTier = 'smarteditor-one' | 'smarteditor-2' | 'legacy';

export interface ParsedBlogPost {
  title: string;
  /** The post body as Markdown, without the title. */
  bodyMarkdown: string;
  images: BlogImage[];
  /** ISO 8601 with the Korean offset, when the page shows an absolute date. */
  publishedAt?: string;
  tier: BlogPostTier;
}

const PAGE_UNAVAILABLE_MESSAGES = {
  private_or_deleted:
    'The blog post is private or has been deleted, so it cannot be read anonymously; pass the URL of a public post.',
  login_required:
    'The blog post is visible only to signed-in neighbours or members, ' +
    'so it cannot be read anonymously; pass the URL of a public post.',
} as const;

/** Zero-width spaces SmartEditor puts into empty paragraphs. */
const ZERO_WIDTH = /\u200b|\u200c|\u200d|\ufeff/g;

/**
 * Parses a Naver blog post page (mobile or PostView form, docs/engines.md#naver-blog-posts). Decision order:
 * block page; post body (SmartEditor ONE, then SmartEditor 2, then the old `#postViewArea`);
 * a private/deleted or sign-in notice (PAGE_UNAVAILABLE); otherwise the layout moved.
 */
export function parseBlogPost(html: string): ParsedBlogPost {
  const $ = cheerio().load(html);
  if (isBlockPage($)) throw new UpstreamFailure('UPSTREAM_BLOCKED', 'naver blog: block/captcha page');

  const seOne = $('.se-main-container').first();
  const se2 = $('.se_component_wrap').first();
  const legacy = $('#postViewArea').first();
  let tier: BlogPostTier;
  let body: { markdown: string; images: BlogImage[] };
  if (seOne.length > 0) {
    tier = 'smarteditor-one';
    body = smartEditorOne($, seOne);
  } else if (se2.length > 0 || legacy.length > 0) {
    tier = se2.length > 0 ? 'smarteditor-2' : 'legacy';
    body = oldEditor($, se2.length > 0 ? se2 : legacy);
  } else {
    const reason = unreadablePostReason($);
    if (reason)
      throw new UpstreamFailure('PAGE_UNAVAILABLE', `naver blog: ${reason}`, {
        clientMessage: PAGE_UNAVAILABLE_MESSAGES[reason],
      });
    throw new UpstreamFailure(
      'LAYOUT_CHANGED',
      'naver blog: no post body (.se-main-container / .se_component_wrap / #postViewArea) and no notice',
    );
  }
  if (body.markdown.trim() === '' && body.images.length === 0) {
    throw new UpstreamFailure('CONTENT_UNREADABLE', `naver blog: ${tier} body holds no text or images`);
  }
  const post: ParsedBlogPost = { title: titleOf($), bodyMarkdown: body.markdown, images: body.images, tier };
  const publishedAt = publishedAtOf($);
  if (publishedAt) post.publishedAt = publishedAt;
  return post;
}

function titleOf($: CheerioAPI): string {
  const candidates = [
    $('.se-title-text').first().text(),
    $('.se_title .se_textarea, .pcol1, .htitle').first().text(),
    $('meta[property="og:title"]').attr('content') ?? '',
    $('title')
      .text()
      .replace(/(?<!\s)\s*:\s*네이버\s*블로그\s*$/, ''),
  ];
  return candidates.map((t) => collapse(t.replace(ZERO_WIDTH, ''))).find((t) => t !== '') ?? '';
}

/** Absolute dates such as "2026. 7. 1. 10:30"; relative ones ("3시간 전") are left out. */
function publishedAtOf($: CheerioAPI): string | undefined {
  const shown = collapse($('.se_publishDate, .blog_date, .se-publishDate, ._postAddDate').first().text());
  const m = /(\d{4})\.\s*(\d{1,2})\.\s*(\d{1,2})\.?(?:\s*(\d{1,2}):(\d{2}))?/.exec(shown);
  if (!m) return undefined;
  const pad = (s: string | undefined) => (s ?? '0').padStart(2, '0');
  return `${m[1]}-${pad(m[2])}-${pad(m[3])}T${pad(m[4])}:${pad(m[5])}:00+09:00`;
}

/** SmartEditor ONE: one Markdown chunk per `.se-component`, by its type class. */
function smartEditorOne($: CheerioAPI, container: Cheerio<Element>): { markdown: string; images: BlogImage[] } {
  const chunks: string[] = [];
  const images: BlogImage[] = [];
  const components = container.find('.se-component').filter((_, el) => $(el).parents('.se-component').length === 0);
  for (const el of components.toArray()) {
    const c = $(el);
    if (c.hasClass('se-documentTitle')) continue;
    if (c.is('.se-image, .se-imageGroup, .se-imageStrip, .se-imageSlide')) {
      for (const img of c.find('img').toArray()) {
        const image = blogImageOf($(img));
        if (!image) continue;
        images.push(image);
        chunks.push(`![${image.caption ?? ''}](${image.url})`);
      }
      continue;
    }
    const chunk = componentMarkdown($, c);
    if (chunk) chunks.push(chunk);
  }
  return { markdown: chunks.join('\n\n'), images };
}

function componentMarkdown($: CheerioAPI, c: Cheerio<Element>): string {
  if (c.hasClass('se-horizontalLine')) return '---';
  if (c.is('.se-sticker, .se-video, .se-oembed, .se-map, .se-placesMap, .se-material')) return '';
  if (c.hasClass('se-sectionTitle')) return heading(paragraphs($, c).join(' '));
  if (c.hasClass('se-quotation')) {
    const quote = paragraphs($, c.find('.se-quote').length > 0 ? c.find('.se-quote') : c).map((p) => `> ${p}`);
    const cite = collapse(c.find('.se-cite').text().replace(ZERO_WIDTH, ''));
    return [...quote, ...(cite ? [`> — ${cite}`] : [])].join('\n');
  }
  if (c.hasClass('se-code')) {
    const code = c
      .find('.se-code-source, pre, code')
      .first()
      .text()
      .replace(ZERO_WIDTH, '')
      .replace(/(?<!\n)\n+$/, '');
    return code ? `\`\`\`\n${code}\n\`\`\`` : '';
  }
  if (c.hasClass('se-oglink')) {
    const href = c.find('a[href^="http"]').first().attr('href');
    const title = collapse(c.find('.se-oglink-title').text()) || href || '';
    return href ? `[${title}](${href})` : title;
  }
  if (c.hasClass('se-table')) return table($, c);
  // se-text and any newer text-bearing component.
  return textBlocks($, c).join('\n\n');
}

function heading(t: string): string {
  return t ? `## ${t}` : '';
}

/** Paragraph texts of a component, blank ones (zero-width spaces) dropped. */
function paragraphs($: CheerioAPI, root: Cheerio<Element>): string[] {
  return root
    .find('p.se-text-paragraph, p')
    .toArray()
    .map((p) => collapse(inline($, p)))
    .filter((t) => t !== '');
}

/** Text paragraphs with list items kept as Markdown lists. */
function textBlocks($: CheerioAPI, c: Cheerio<Element>): string[] {
  const out: string[] = [];
  for (const p of c.find('p.se-text-paragraph, p').toArray()) {
    const t = collapse(inline($, p));
    if (!t) continue;
    const li = $(p).closest('li');
    if (li.length === 0) {
      out.push(t);
      continue;
    }
    const list = li.parent();
    const prefix = list.is('ol') ? `${list.children('li').index(li) + 1}. ` : '- ';
    const last = out.length - 1;
    // Consecutive items form one list block.
    if (last >= 0 && /^(- |\d+\. )/.test(out[last] ?? '')) out[last] += `\n${prefix}${t}`;
    else out.push(prefix + t);
  }
  return out;
}

function inline($: CheerioAPI, node: AnyNode): string {
  if (node.type === 'text') return node.data.replace(ZERO_WIDTH, '');
  if (node.type !== 'tag') return '';
  const el = node as Element;
  if (el.tagName === 'br') return ' ';
  const inner = el.children.map((c) => inline($, c)).join('');
  if (el.tagName === 'a') {
    const href = $(el).attr('href');
    const t = collapse(inner);
    return href && /^https?:\/\//.test(href) && t ? `[${t}](${href})` : t;
  }
  if (el.tagName === 'b' || el.tagName === 'strong') return inner.trim() ? `**${inner.trim()}**` : '';
  return inner;
}

function table($: CheerioAPI, c: Cheerio<Element>): string {
  const rows = c
    .find('tr')
    .toArray()
    .map((tr) =>
      $(tr)
        .find('td, th')
        .toArray()
        .map((cell) => collapse(inline($, cell)).replace(/\|/g, '\\|')),
    )
    .filter((r) => r.length > 0);
  const [head, ...rest] = rows;
  if (!head) return '';
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rest.map(line)].join('\n');
}

/** SmartEditor 2 and older posts are free-form HTML: Turndown reads them. */
function oldEditor($: CheerioAPI, container: Cheerio<Element>): { markdown: string; images: BlogImage[] } {
  const images = container
    .find('img')
    .toArray()
    .flatMap((img) => blogImageOf($(img)) ?? []);
  const clone = container.clone();
  // Point images at their real (lazy) source before conversion.
  clone.find('img').each((_, img) => {
    const image = blogImageOf($(img));
    if (image) $(img).attr('src', image.url);
    else $(img).remove();
  });
  // The title is reported separately; SmartEditor 2 keeps it inside the body wrapper.
  clone.find('script, style, .se_title').remove();
  const turndown = new (loadTurndown())({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  const markdown = turndown
    .turndown(clone.html() ?? '')
    .replace(ZERO_WIDTH, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { markdown, images };
}
