/** One image of a read page (docs/engines.md#page-images): `og` is the page's lead image, `article` one in the text. */
export interface PageImage {
  url: string;
  alt: string;
  width?: number;
  height?: number;
  source: 'article' | 'og';
}

// Lazy loaders keep the real URL here and a placeholder in `src`.
const LAZY_ATTRS = ['data-src', 'data-lazy-src', 'data-original'];
const SRCSET_ATTRS = ['srcset', 'data-srcset', 'data-lazy-srcset'];
const NON_CONTENT_FILE = /(^|[/_.-])(pixel|spacer|blank|1x1|transparent|sprites?)([._-][\w-]*)?\.(gif|png|svg|webp)$/i;

/** The page's lead image from `og:image` / `twitter:image`, resolved against the document base. */
export function leadImage(doc: Document): PageImage | null {
  const content = (sel: string) => doc.querySelector(sel)?.getAttribute('content')?.trim() || null;
  const raw =
    content('meta[property="og:image:secure_url"]') ??
    content('meta[property="og:image"]') ??
    content('meta[property="og:image:url"]') ??
    content('meta[name="twitter:image"]') ??
    content('meta[property="twitter:image"]');
  const url = raw ? absoluteImageUrl(raw, doc.baseURI) : null;
  if (!url) return null;
  const img: PageImage = { url, alt: content('meta[property="og:image:alt"]') ?? '', source: 'og' };
  const w = dimension(content('meta[property="og:image:width"]'));
  const h = dimension(content('meta[property="og:image:height"]'));
  if (w !== undefined) img.width = w;
  if (h !== undefined) img.height = h;
  return img;
}

/**
 * Picks each article image's real URL (largest srcset candidate, then lazy attributes, then
 * `src`), makes it absolute, rewrites the element to a plain `<img src>` for Markdown, and drops
 * placeholders, tracking pixels and sprites. Returns the images in document order.
 */
export function resolveArticleImages(root: Element, baseUri: string): PageImage[] {
  const out: PageImage[] = [];
  for (const img of [...root.querySelectorAll('img')]) {
    const picked = pickImageUrl(img, baseUri);
    const url = picked?.url;
    let width = dimension(img.getAttribute('width'));
    let height = dimension(img.getAttribute('height'));
    if (
      !url ||
      (width !== undefined && width <= 1) ||
      (height !== undefined && height <= 1) ||
      NON_CONTENT_FILE.test(new URL(url).pathname)
    ) {
      img.remove();
      continue;
    }
    if (picked.w) {
      // The attributes give the displayed size; a `w` candidate is the file's real width.
      if (width && height) height = Math.round((height * picked.w) / width);
      width = picked.w;
    }
    const alt = (img.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
    for (const a of [...img.attributes])
      if (!['alt', 'title', 'width', 'height'].includes(a.name)) img.removeAttribute(a.name);
    img.setAttribute('src', url);
    const entry: PageImage = { url, alt, source: 'article' };
    if (width !== undefined) entry.width = width;
    if (height !== undefined) entry.height = height;
    out.push(entry);
  }
  for (const s of [...root.querySelectorAll('picture > source')]) s.remove();
  return out;
}

/** Lead image first, then article images; one entry per URL (a later duplicate lends its alt text). */
export function mergeImages(lead: PageImage | null, article: PageImage[]): PageImage[] {
  const byUrl = new Map<string, PageImage>();
  for (const img of lead ? [lead, ...article] : article) {
    const seen = byUrl.get(img.url);
    if (!seen) byUrl.set(img.url, { ...img });
    else if (!seen.alt && img.alt) seen.alt = img.alt;
  }
  return [...byUrl.values()];
}

function pickImageUrl(img: Element, baseUri: string): { url: string; w?: number } | null {
  const candidates: SrcsetCandidate[] = [];
  const sets = SRCSET_ATTRS.map((a) => img.getAttribute(a));
  if (img.parentElement?.tagName === 'PICTURE') {
    for (const s of img.parentElement.querySelectorAll('source'))
      sets.push(s.getAttribute('srcset') ?? s.getAttribute('data-srcset'));
  }
  const best = largestCandidate(sets.filter((s): s is string => !!s).flatMap(parseSrcset));
  if (best) candidates.push(best);
  for (const a of [...LAZY_ATTRS, 'src']) {
    const v = img.getAttribute(a);
    if (v) candidates.push({ url: v });
  }
  for (const c of candidates) {
    const abs = absoluteImageUrl(c.url, baseUri);
    if (abs) return c.w ? { url: abs, w: c.w } : { url: abs };
  }
  return null;
}

interface SrcsetCandidate {
  url: string;
  w?: number;
  x?: number;
}

/** Parses `srcset` per the HTML algorithm: URLs are whitespace-delimited and may contain commas. */
export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const out: SrcsetCandidate[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && /[\s,]/.test(srcset[i] as string)) i++;
    const start = i;
    while (i < srcset.length && !/\s/.test(srcset[i] as string)) i++;
    let url = srcset.slice(start, i);
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/(?<!,),+$/, '');
    } else {
      const end = srcset.indexOf(',', i);
      descriptor = srcset.slice(i, end === -1 ? srcset.length : end).trim();
      i = end === -1 ? srcset.length : end + 1;
    }
    if (!url) continue;
    const c: SrcsetCandidate = { url };
    const m = /^([\d.]+)([wx])$/i.exec(descriptor);
    if (m?.[1] && m[2]) c[m[2].toLowerCase() as 'w' | 'x'] = Number(m[1]);
    out.push(c);
  }
  return out;
}

function largestCandidate(cands: SrcsetCandidate[]): SrcsetCandidate | null {
  const usable = cands.filter((c) => !c.url.startsWith('data:'));
  if (usable.length === 0) return null;
  const key = usable.some((c) => c.w !== undefined)
    ? (c: SrcsetCandidate) => c.w ?? 0
    : (c: SrcsetCandidate) => c.x ?? 1;
  return usable.reduce((a, b) => (key(b) > key(a) ? b : a));
}

function absoluteImageUrl(raw: string, baseUri: string): string | null {
  const v = raw.trim();
  if (!v || /^data:/i.test(v)) return null;
  try {
    const u = new URL(v, baseUri);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

function dimension(v: string | null | undefined): number | undefined {
  if (!v) return undefined;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
