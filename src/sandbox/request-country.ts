import type { FastifyRequest } from 'fastify';

/**
 * The country a simulated upstream is asked for, read from the request's own region signal, as the real service reads
 * it: Google's `gl`, Bing's `cc`, the `user_location.country` of an OpenAI or Perplexity body, else the region of
 * `Accept-Language` (`ko-KR` → KR); `US` when the request carries none (a Gemini call: the real one reads the exit
 * address, which the sandbox does not have).
 */
export function requestCountry(req: FastifyRequest, body?: unknown): string {
  const query = req.query as Record<string, unknown> | undefined;
  for (const name of ['gl', 'cc']) {
    const v = query?.[name];
    if (typeof v === 'string' && /^[A-Za-z]{2}$/.test(v)) return v.toUpperCase();
  }
  const located = userLocationCountry(body);
  if (located) return located;
  const region = /^[a-z]{2,3}-([A-Za-z]{2})\b/i.exec(String(req.headers['accept-language'] ?? ''))?.[1];
  return region ? region.toUpperCase() : 'US';
}

/** `user_location.country` in the body or one level down (`web_search_options`, each of `tools`). */
function userLocationCountry(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const candidates: unknown[] = [body, ...Object.values(body)];
  const tools = (body as { tools?: unknown }).tools;
  if (Array.isArray(tools)) candidates.push(...tools);
  for (const c of candidates) {
    const country = (c as { user_location?: { country?: unknown } } | null)?.user_location?.country;
    if (typeof country === 'string' && /^[A-Za-z]{2}$/.test(country)) return country.toUpperCase();
  }
  return null;
}
