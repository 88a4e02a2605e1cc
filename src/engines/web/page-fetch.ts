import zlib from 'node:zlib';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HttpTransport } from '../../transport/http-transport.js';
import { acceptLanguage, regionLocale, USER_AGENTS } from '../../transport/identity.js';

/** A fetched page as bytes and headers, before interpretation: what `interpretPage` reads, what fixtures reproduce. */
export interface PageBytes {
  /** The URL the client asked for. */
  requestedUrl: string;
  /** The URL after redirects: the base for relative links (unless the page has `<base href>`). */
  finalUrl: string;
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Body bytes: as sent by `fetchRawPage`, decompressed by `decodedPage`; the charset is applied later. */
  body: Buffer;
}

/** Transfer and decompressed-size cap (5-10 MB is the usual range: docs/engines.md#page-fetch). */
const MAX_PAGE_BYTES = 10 * 1024 * 1024;

/** Headers a browser sends for a top-level navigation; `Accept-Language` follows the attempt's country. */
export function browserHeaders(country: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    'user-agent': USER_AGENTS.desktopChrome,
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
    'accept-language': acceptLanguage(regionLocale(country).locale, true),
    'accept-encoding': 'gzip, deflate, br',
    'upgrade-insecure-requests': '1',
    'sec-fetch-dest': 'document',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-site': 'none',
    'sec-fetch-user': '?1',
    ...lowerKeys(overrides),
  };
}

/**
 * GETs a page through the attempt's transport (redirects followed, size capped) with the body as sent
 * (still compressed): the parse pool decompresses it off the event loop (`decodedPage`), since inflating
 * a large page is CPU work like parsing it.
 */
export async function fetchRawPage(
  http: HttpTransport,
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<PageBytes> {
  const res = await http.request({
    method: 'GET',
    url,
    headers,
    followRedirects: true,
    maxRedirects: 10,
    maxBytes: MAX_PAGE_BYTES,
    signal,
  });
  return { requestedUrl: url, finalUrl: res.url, status: res.status, headers: res.headers, body: res.body };
}

/** A page of `fetchRawPage` with its body decompressed per its Content-Encoding. */
export function decodedPage(page: PageBytes): PageBytes {
  return { ...page, body: decompress(page.body, page.headers['content-encoding']) };
}

/**
 * The transport returns bytes as sent (undici's `request` does not decode); we advertise gzip,
 * deflate and br like a browser, so undo them here, capped against decompression bombs.
 */
export function decompress(body: Buffer, encoding: string | undefined): Buffer {
  const codings = (encoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  let out = body;
  try {
    for (const c of codings.reverse()) {
      if (c === 'gzip' || c === 'x-gzip') out = zlib.gunzipSync(out, { maxOutputLength: MAX_PAGE_BYTES });
      else if (c === 'br') out = zlib.brotliDecompressSync(out, { maxOutputLength: MAX_PAGE_BYTES });
      else if (c === 'deflate') out = inflateEither(out);
      else throw new UpstreamFailure('CONTENT_UNREADABLE', `unsupported content-encoding ${c}`);
    }
  } catch (e) {
    if (e instanceof UpstreamFailure) throw e;
    if ((e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new UpstreamFailure('CONTENT_UNREADABLE', `decompressed page over ${MAX_PAGE_BYTES} bytes`);
    }
    throw new UpstreamFailure('UPSTREAM_ERROR', `corrupt ${encoding} body: ${(e as Error).message}`);
  }
  return out;
}

// "deflate" is zlib-wrapped by the standard, but some servers send raw deflate.
function inflateEither(b: Buffer): Buffer {
  try {
    return zlib.inflateSync(b, { maxOutputLength: MAX_PAGE_BYTES });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw e;
    return zlib.inflateRawSync(b, { maxOutputLength: MAX_PAGE_BYTES });
  }
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}
