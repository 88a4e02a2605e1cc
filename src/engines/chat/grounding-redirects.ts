import type { HttpTransport } from '../../transport/http-transport.js';
import type { GroundingChunk, ResolvedChunk } from './gemini-parser.js';

const REDIRECT_PATH = '/grounding-api-redirect/';
/** Google's grounding redirect host (docs/engines.md#gemini-grounding): the only real host a URI is fetched on. */
const GOOGLE_REDIRECT_ORIGIN = 'https://vertexaisearch.cloud.google.com';
const DOMAIN_LIKE = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/**
 * Resolves Gemini grounding chunk URIs to publisher URLs (docs/engines.md#gemini-grounding). Redirect URIs are
 * requested without following the redirect and their `Location` is read; the links expire, so this
 * happens at collection time. Only Google's redirect host is requested, and the configured upstream's own
 * redirect route (`upstreamBase`, the simulator in the sandbox): the URIs come from the answer, and a request
 * to any host they name would let an answer make the service call addresses of its choosing. Another URI is
 * kept as given, unrequested. No API key is sent to it.
 * A failed resolution falls back to `https://<title>` (the title is usually the domain) and says so.
 */
export async function resolveGroundingChunks(
  http: HttpTransport,
  chunks: readonly GroundingChunk[],
  signal: AbortSignal,
  upstreamBase: string,
  headers: Record<string, string> = {},
): Promise<Map<number, ResolvedChunk>> {
  const out = new Map<number, ResolvedChunk>();
  await Promise.all(
    chunks.map(async (c) => {
      if (c.uri === null) return;
      out.set(c.index, await resolveOne(http, c, c.uri, signal, upstreamBase, headers));
    }),
  );
  return out;
}

async function resolveOne(
  http: HttpTransport,
  chunk: GroundingChunk,
  uri: string,
  signal: AbortSignal,
  upstreamBase: string,
  headers: Record<string, string>,
): Promise<ResolvedChunk> {
  if (!isRedirectUri(uri, upstreamBase)) return { url: uri, resolution: 'direct' };
  try {
    const res = await http.request({
      method: 'GET',
      url: uri,
      headers,
      followRedirects: false,
      maxBytes: 256 * 1024,
      signal,
    });
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location) {
      return { url: new URL(location, uri).toString(), resolution: 'redirect', status: res.status };
    }
    return fallback(chunk, uri, { status: res.status });
  } catch (e) {
    // The attempt's own timeout or drain must end the attempt, not turn into a fallback URL.
    if (signal.aborted) throw e;
    return fallback(chunk, uri, { error: e instanceof Error ? e.name : 'Error' });
  }
}

/**
 * A grounding redirect we may request: on Google's redirect host, or under the configured upstream's base URL,
 * compared on the parsed URL (origin and path), so user-info, dot segments or a look-alike host do not pass.
 */
function isRedirectUri(uri: string, upstreamBase: string): boolean {
  const u = URL.canParse(uri) ? new URL(uri) : null;
  if (!u || u.username || u.password) return false;
  if (u.origin === GOOGLE_REDIRECT_ORIGIN && u.pathname.startsWith(REDIRECT_PATH)) return true;
  const base = URL.canParse(upstreamBase) ? new URL(upstreamBase) : null;
  return (
    base !== null &&
    u.origin === base.origin &&
    u.pathname.startsWith(base.pathname.replace(/\/+$/, '') + REDIRECT_PATH)
  );
}

function fallback(chunk: GroundingChunk, uri: string, why: { status?: number; error?: string }): ResolvedChunk {
  const title = chunk.title?.trim() ?? '';
  if (DOMAIN_LIKE.test(title)) return { url: `https://${title.toLowerCase()}`, resolution: 'title-fallback', ...why };
  return { url: uri, resolution: 'unresolved', ...why };
}
