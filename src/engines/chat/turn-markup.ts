import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';

/**
 * What a logged-in chat page may give back in `raw` (docs/security.md#shared-browser-accounts). The
 * pool accounts are shared by every tenant, so the page around the answer is theirs, not the
 * caller's: the account's identity, its session tokens and the history sidebar with other tenants'
 * prompts. Only the markup of the answer turn itself leaves, stripped of scripts, media and every
 * attribute but a link's target, and with anything that looks like an address or a token masked.
 */

/** Elements that carry no answer text but may carry state, tracking or identity (avatars are images). */
const DROPPED =
  'script, style, template, noscript, svg, img, picture, video, audio, iframe, object, embed, ' +
  'form, input, textarea, button, link, meta';
/** Bound on the markup kept: one answer turn is a few KB; a page that swells it is cut, not echoed. */
const MAX_TURN_CHARS = 200_000;

/** Runs of the characters e-mail addresses and tokens are made of; each run is judged whole, in one pass. */
const RUN = /[A-Za-z0-9_.%+@-]+/g;
/** A token piece: 32+ word characters mixing letters and digits (session ids, keys, signatures; not a slug). */
const MIN_TOKEN_PIECE = 32;

/**
 * Masks e-mail addresses (a run with `@` and a dot after it), JWTs (three dot-separated parts, the first
 * `eyJ`: base64 of `{"`) and long random-looking pieces. One linear scan: the run pattern cannot
 * backtrack, and each run is then inspected with string operations only.
 */
export function maskTokens(s: string): string {
  return s.replace(RUN, (run) => {
    const at = run.indexOf('@');
    if (at > 0 && run.indexOf('.', at + 2) > at + 1) return '[email]';
    if (run.startsWith('eyJ') && run.split('.').length >= 3) return '[token]';
    return run.split(/[.@%+-]/).some(isTokenPiece) ? '[token]' : run;
  });
}

function isTokenPiece(piece: string): boolean {
  return piece.length >= MIN_TOKEN_PIECE && /[0-9]/.test(piece) && /[A-Za-z]/.test(piece);
}

/** The answer turn's own markup, scrubbed: what `raw.turnHtml` holds. */
export function scrubbedTurnMarkup($: CheerioAPI, box: Cheerio<AnyNode>, identity: readonly string[]): string {
  const clone = box.clone();
  clone.find(DROPPED).remove();
  clone.find('*').each((_, node) => {
    const el = node as Element;
    for (const name of Object.keys(el.attribs)) if (!(el.tagName === 'a' && name === 'href')) $(el).removeAttr(name);
  });
  const html = (clone.html() ?? '').slice(0, MAX_TURN_CHARS);
  return maskTokens(withoutIdentity(html, identity));
}

/** Keys of the user object (the one with an `email`) that name the account. */
const USER_KEYS = ['email', 'name', 'given_name', 'family_name', 'picture', 'image', 'id'];
/** Keys that hold the session's credentials wherever they appear. */
const TOKEN_KEYS = new Set(['accessToken', 'access_token', 'sessionToken', 'refreshToken', 'id_token']);
/** One account's strings are a handful; the bound keeps the replacements linear in the page. */
const MAX_IDENTITY_STRINGS = 32;
/** JSON scripts larger than this are not walked (bootstrap data is tens of KB). */
const MAX_BOOTSTRAP_CHARS = 2_000_000;

/**
 * The account's identity strings as the page states them in its inline JSON (`__NEXT_DATA__`,
 * client bootstrap data): e-mail, names, avatar URL, user id and tokens. Used to take them out of
 * everything the attempt returns, should the answer or a banner quote them.
 */
export function pageIdentity($: CheerioAPI): string[] {
  const found = new Set<string>();
  $('script[type="application/json"], script#__NEXT_DATA__').each((_, el) => {
    const text = $(el).text();
    if (text.length > MAX_BOOTSTRAP_CHARS) return;
    try {
      collect(JSON.parse(text) as unknown, found, 0);
    } catch {
      // Not JSON after all: nothing to learn from it.
    }
  });
  return [...found]
    .filter((s) => s.trim().length >= 3)
    .sort((a, b) => b.length - a.length)
    .slice(0, MAX_IDENTITY_STRINGS);
}

function collect(v: unknown, out: Set<string>, depth: number): void {
  if (depth > 12 || v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const x of v) collect(x, out, depth + 1);
    return;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.email === 'string') for (const k of USER_KEYS) if (typeof o[k] === 'string') out.add(o[k] as string);
  for (const [k, x] of Object.entries(o)) {
    if (typeof x === 'string' && TOKEN_KEYS.has(k)) out.add(x);
    else collect(x, out, depth + 1);
  }
}

/** Replaces each identity string (longest first, so a name inside an e-mail goes with the e-mail). */
export function withoutIdentity(s: string, identity: readonly string[]): string {
  let out = s;
  for (const v of identity) if (out.includes(v)) out = out.split(v).join('[account]');
  return out;
}
