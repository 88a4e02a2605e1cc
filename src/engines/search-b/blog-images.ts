import type { Cheerio } from 'cheerio';
import type { Element } from 'domhandler';
import { collapse } from './naver-signals.js';

export interface BlogImage {
  url: string;
  caption?: string;
  width?: number;
  height?: number;
}

interface LinkData {
  src?: unknown;
  originalWidth?: unknown;
  originalHeight?: unknown;
}

/** Naver's blurred lazy-load placeholder rendition (`?type=w80_blur`). */
const BLUR_TYPE = /([?&]type=)w\d+_blur\b/;

/**
 * The real image behind a SmartEditor `<img>` (docs/engines.md#naver-blog-posts): `src` is often a blurred
 * placeholder; the wrapping link's `data-linkdata` JSON and `data-lazy-src` carry the real URL.
 * Returns null for images without any usable http(s) URL (e.g. inline data: stickers).
 */
export function blogImageOf(img: Cheerio<Element>): BlogImage | null {
  const link = img.closest('a[data-linkdata], a.se-module-image-link');
  const data = linkData(link.attr('data-linkdata'));
  const candidates = [
    str(data?.src),
    img.attr('data-lazy-src'),
    img.attr('data-src'),
    img.attr('data-lazysrc'),
    img.attr('src'),
  ];
  const raw = candidates.find((c) => c && /^(https?:)?\/\//.test(c.trim()));
  if (!raw) return null;
  // A placeholder is all we have: ask for a readable rendition instead of the blur.
  const url = absolute(raw.trim()).replace(BLUR_TYPE, '$1w966');
  const image: BlogImage = { url };
  const caption = captionOf(img);
  if (caption) image.caption = caption;
  const width = num(data?.originalWidth) ?? num(img.attr('width'));
  const height = num(data?.originalHeight) ?? num(img.attr('height'));
  if (width) image.width = width;
  if (height) image.height = height;
  return image;
}

function captionOf(img: Cheerio<Element>): string {
  const holder = img.closest('.se-imageGroup-item, .se-section, .se-component');
  const caption = holder.find('.se-caption').first();
  const text = caption.length > 0 ? caption.text() : (img.attr('alt') ?? '');
  return collapse(text.replace(/[\u200b\ufeff]/g, ''));
}

function linkData(raw: string | undefined): LinkData | null {
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' ? (parsed as LinkData) : null;
  } catch {
    return null;
  }
}

function absolute(u: string): string {
  return u.startsWith('//') ? `https:${u}` : u;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.round(n) : undefined;
}
