/**
 * URL normalisation for sources (upstreams.md 0.1): drop `#:~:text=` highlight fragments and
 * tracking parameters (`utm_*`), keep scheme, host, path and the remaining query.
 */
export function normalizeSourceUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return raw;
  }
  if (u.hash.startsWith('#:~:')) u.hash = '';
  for (const k of [...u.searchParams.keys()]) if (k.toLowerCase().startsWith('utm_')) u.searchParams.delete(k);
  return u.toString();
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}
