import { UpstreamFailure } from '../../domain/engine-errors.js';

/**
 * Autocomplete wire formats (§3.1, docs/engines.md#google-autocomplete, #naver-autocomplete). A body without
 * the required structure is LAYOUT_CHANGED, never an empty success; an empty list is a legitimate answer.
 */
export interface Suggestion {
  text: string;
  /** Google `client=chrome` relevance, when given. */
  relevance: number | null;
  /** Google `client=chrome` suggest type (`QUERY`, `NAVIGATION`, …), when given. */
  type: string | null;
}

export interface ParsedSuggestions {
  /** The query the provider says it answered (null when the format carries none). */
  echo: string | null;
  suggestions: Suggestion[];
}

const layout = (what: string) => new UpstreamFailure('LAYOUT_CHANGED', `autocomplete: ${what}`);

function parseJson(text: string, who: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw layout(`${who} answered a body that is not JSON`);
  }
}

function stringList(v: unknown, who: string): string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw layout(`${who}: suggestion list missing`);
  return v as string[];
}

/** `client=firefox`: `[q, [s1, s2, …], …]` (rank only). */
export function parseGoogleFirefox(text: string): ParsedSuggestions {
  const body = parseJson(text, 'google firefox');
  if (!Array.isArray(body) || typeof body[0] !== 'string') throw layout('google firefox: not [query, [suggestions]]');
  return {
    echo: body[0],
    suggestions: stringList(body[1], 'google firefox').map((s) => ({ text: s, relevance: null, type: null })),
  };
}

/** `client=chrome`: firefox shape plus `{google:suggestrelevance, google:suggesttype}` in element 4. */
export function parseGoogleChrome(text: string): ParsedSuggestions {
  const body = parseJson(text, 'google chrome');
  if (!Array.isArray(body) || typeof body[0] !== 'string') throw layout('google chrome: not [query, [suggestions], …]');
  const list = stringList(body[1], 'google chrome');
  const meta = body[4];
  const obj =
    typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {};
  const rel = Array.isArray(obj['google:suggestrelevance']) ? (obj['google:suggestrelevance'] as unknown[]) : [];
  const types = Array.isArray(obj['google:suggesttype']) ? (obj['google:suggesttype'] as unknown[]) : [];
  return {
    echo: body[0],
    suggestions: list.map((s, i) => ({
      text: s,
      relevance: typeof rel[i] === 'number' ? (rel[i] as number) : null,
      type: typeof types[i] === 'string' ? (types[i] as string) : null,
    })),
  };
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  '#x27': "'",
  apos: "'",
};

export function stripTags(html: string): string {
  return html
    .replace(/<[^<>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|#x27|apos);/g, (_, e: string) => ENTITIES[e] ?? '');
}

/** `client=gws-wiz`: an anti-JSON prefix line `)]}'`, then `[[["<b>…</b>", 0, […]], …], {…}]`. */
export function parseGoogleGwsWiz(text: string): ParsedSuggestions {
  const body = parseJson(text.replace(/^\)\]\}'\s*/, ''), 'google gws-wiz');
  if (!Array.isArray(body) || !Array.isArray(body[0])) throw layout('google gws-wiz: no suggestion array');
  const suggestions = (body[0] as unknown[]).map((entry) => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') throw layout('google gws-wiz: entry without text');
    return { text: stripTags(entry[0]), relevance: null, type: null };
  });
  const tail = body[1];
  const echo =
    typeof tail === 'object' && tail !== null && typeof (tail as Record<string, unknown>).i === 'string'
      ? ((tail as Record<string, unknown>).i as string)
      : null;
  return { echo, suggestions };
}

/** Naver `nx/ac`: `{query: [q], items: [[["suggestion", …], …], …]}`; items[0] is the autocomplete list. */
export function parseNaverAc(text: string): ParsedSuggestions {
  const body = parseJson(text.replace(/^\s*<html><body><pre>|<\/pre><\/body><\/html>\s*$/g, ''), 'naver ac');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw layout('naver ac: not an object');
  const o = body as Record<string, unknown>;
  if (!Array.isArray(o.items)) throw layout('naver ac: items missing');
  const first: unknown = o.items[0] ?? [];
  if (!Array.isArray(first)) throw layout('naver ac: items[0] is not a list');
  const suggestions = first.map((entry: unknown) => {
    const t = Array.isArray(entry) ? (entry[0] as unknown) : undefined;
    if (typeof t !== 'string') throw layout('naver ac: entry without text');
    return { text: t, relevance: null, type: null };
  });
  const q = Array.isArray(o.query) && typeof o.query[0] === 'string' ? o.query[0] : null;
  return { echo: q, suggestions };
}
