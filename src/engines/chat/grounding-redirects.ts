import type { HttpTransport } from '../../transport/http-transport.js';
import type { GroundingChunk, ResolvedChunk } from './gemini-parser.js';

const REDIRECT_PATH = '/grounding-api-redirect/';
const DOMAIN_LIKE = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/**
 * Resolves Gemini grounding chunk URIs to publisher URLs (docs/engines.md#gemini-grounding). Redirect URIs are
 * requested without following the redirect and their `Location` is read; the links expire, so this
 * happens at collection time. Whatever host the upstream names is used (the real one is
 * vertexaisearch.cloud.google.com; the sandbox names itself). No API key is sent to it.
 * A failed resolution falls back to `https://<title>` (the title is usually the domain) and says so.
 */
export async function resolveGroundingChunks(
  http: HttpTransport,
  chunks: readonly GroundingChunk[],
  signal: AbortSignal,
  headers: Record<string, string> = {},
): Promise<Map<number, ResolvedChunk>> {
  const out = new Map<number, ResolvedChunk>();
  await Promise.all(
    chunks.map(async (c) => {
      if (c.uri === null) return;
      out.set(c.index, await resolveOne(http, c, c.uri, signal, headers));
    }),
  );
  return out;
}

async function resolveOne(
  http: HttpTransport,
  chunk: GroundingChunk,
  uri: string,
  signal: AbortSignal,
  headers: Record<string, string>,
): Promise<ResolvedChunk> {
  if (!isRedirectUri(uri)) return { url: uri, resolution: 'direct' };
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

export function isRedirectUri(uri: string): boolean {
  try {
    return new URL(uri).pathname.includes(REDIRECT_PATH);
  } catch {
    return false;
  }
}

function fallback(chunk: GroundingChunk, uri: string, why: { status?: number; error?: string }): ResolvedChunk {
  const title = chunk.title?.trim() ?? '';
  if (DOMAIN_LIKE.test(title)) return { url: `https://${title.toLowerCase()}`, resolution: 'title-fallback', ...why };
  return { url: uri, resolution: 'unresolved', ...why };
}
