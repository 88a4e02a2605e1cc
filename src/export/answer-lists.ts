/**
 * Readers of the lists of a stored answer (`sources`, `retrievedSources`, `searchQueries`, `products`) for flat
 * exports. A stored result is JSON an engine of some version wrote: an item may be null, a bare value, or lack its
 * members. Each reader keeps the items it can read, skips the others, and never throws; null means the member is not
 * a list at all (the engine cannot tell), an empty list that it listed nothing readable.
 *
 * The cells join their items (URLs by a space, the others by " | "), so every item is made one line and a URL holds
 * no whitespace: a URL cell splits on its spaces into its URLs.
 */

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A text member as one trimmed line, or null when absent, not a string or blank. */
function line(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

/** A URL member with any whitespace in it percent-encoded (never valid there), or null. */
function urlOf(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t.replace(/\s/g, (c) => encodeURIComponent(c));
}

/** The `url` of each listed item that has one. */
export function listedUrls(list: unknown): string[] | null {
  if (!Array.isArray(list)) return null;
  const out: string[] = [];
  for (const item of list) {
    const url = isRecord(item) ? urlOf(item.url) : null;
    if (url !== null) out.push(url);
  }
  return out;
}

/** The queries the engine ran: the string items. */
export function listedQueries(list: unknown): string[] | null {
  if (!Array.isArray(list)) return null;
  const out: string[] = [];
  for (const item of list) {
    const q = line(item);
    if (q !== null) out.push(q);
  }
  return out;
}

/** Product cards as `title (price)`, `title` alone without a price; an item without a title is skipped. */
export function listedProducts(list: unknown): string[] | null {
  if (!Array.isArray(list)) return null;
  const out: string[] = [];
  for (const item of list) {
    if (!isRecord(item)) continue;
    const title = line(item.title);
    if (title === null) continue;
    const price = typeof item.price === 'number' && Number.isFinite(item.price) ? String(item.price) : line(item.price);
    out.push(price === null ? title : `${title} (${price})`);
  }
  return out;
}
