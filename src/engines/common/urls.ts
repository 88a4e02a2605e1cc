/** `new URL(raw, base)`, or null for what does not parse (the WHATWG parser throws). */
export function parseUrl(raw: string, base?: string): URL | null {
  try {
    return new URL(raw, base);
  } catch {
    return null;
  }
}

/**
 * URL normalisation for sources (docs/engines.md#normalised-answer): drop `#:~:text=` highlight fragments and
 * tracking parameters (`utm_*`), keep scheme, host, path and the remaining query.
 */
export function normalizeSourceUrl(raw: string): string {
  const u = parseUrl(raw);
  if (!u) return raw;
  if (u.hash.startsWith('#:~:')) u.hash = '';
  for (const k of [...u.searchParams.keys()]) if (k.toLowerCase().startsWith('utm_')) u.searchParams.delete(k);
  return u.toString();
}

/** The host a reader is shown: without `www.`; the text as given when it is no URL. */
export function displayHost(url: string): string {
  return parseUrl(url)?.hostname.replace(/^www\./, '') ?? url;
}
