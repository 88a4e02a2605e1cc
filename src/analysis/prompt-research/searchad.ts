import { createHmac } from 'node:crypto';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HttpRequest, HttpResponse } from '../../transport/http-transport.js';
import { trimEndChars } from '../text/norm.js';

/**
 * Naver Search Ad keyword tool (docs/analysis.md#s3-1): `GET /keywordstool?hintKeywords=…&showDetail=1`
 * signed with `X-Signature = base64(HMAC-SHA256(secret, "{timestamp}.{METHOD}.{path}"))` (path
 * without the query string), as Naver's public sample clients do. At most 5 hint keywords, spaces
 * removed; keywords come back space-free and upper-cased, so everything is matched on that key.
 */
export interface SearchadCredentials {
  customerId: string;
  accessLicense: string;
  secretKey: string;
}

/** The engine's API key holds `customerId:accessLicense:secretKey`; anything else is "not configured". */
export function searchadCredentials(apiKey: string | undefined): SearchadCredentials | null {
  const parts = (apiKey ?? '').split(':');
  if (parts.length < 3) return null;
  const [customerId, accessLicense, ...secret] = parts;
  const secretKey = secret.join(':');
  if (!customerId || !accessLicense || !secretKey) return null;
  return { customerId, accessLicense, secretKey };
}

export function searchadSignature(timestamp: string, method: string, path: string, secretKey: string): string {
  return createHmac('sha256', secretKey).update(`${timestamp}.${method}.${path}`).digest('base64');
}

/** Matching key of §3.1: no whitespace, upper case. */
export function searchadKey(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, '').toUpperCase();
}

/** A hint keyword as sent: the key without punctuation or symbols (the tool refuses them). */
export function hintKeyword(text: string): string {
  return searchadKey(text).replace(/[\p{P}\p{S}]+/gu, '');
}

const PATH = '/keywordstool';

export function keywordToolRequest(
  baseUrl: string,
  keywords: readonly string[],
  creds: SearchadCredentials,
  timestamp: string,
): HttpRequest {
  return {
    method: 'GET',
    url: `${trimEndChars(baseUrl, '/')}${PATH}?hintKeywords=${encodeURIComponent(keywords.join(','))}&showDetail=1`,
    headers: {
      'x-timestamp': timestamp,
      'x-api-key': creds.accessLicense,
      'x-customer': creds.customerId,
      'x-signature': searchadSignature(timestamp, 'GET', PATH, creds.secretKey),
      accept: 'application/json',
    },
    followRedirects: false,
  };
}

export interface KeywordVolume {
  /** Monthly PC + mobile searches; each `"< 10"` counts as 5. */
  volume: number;
  /** Every count behind the volume was `"< 10"`. */
  low: boolean;
}

function count(v: unknown): { n: number; low: boolean } | null {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return { n: v, low: false };
  if (typeof v === 'string') {
    if (/^\s*<\s*10\s*$/.test(v)) return { n: 5, low: true };
    const n = Number(v.replace(/,/g, ''));
    if (Number.isFinite(n) && n >= 0) return { n, low: false };
  }
  return null;
}

/** `{keywordList: [{relKeyword, monthlyPcQcCnt, monthlyMobileQcCnt, …}]}` → volumes by hint-keyword key. */
export function parseKeywordTool(body: unknown): Map<string, KeywordVolume> {
  const list = typeof body === 'object' && body !== null ? (body as { keywordList?: unknown }).keywordList : undefined;
  if (!Array.isArray(list)) throw new UpstreamFailure('LAYOUT_CHANGED', 'naver searchad: keywordList missing');
  const out = new Map<string, KeywordVolume>();
  for (const row of list) {
    if (typeof row !== 'object' || row === null)
      throw new UpstreamFailure('LAYOUT_CHANGED', 'naver searchad: keyword row is not an object');
    const r = row as Record<string, unknown>;
    const pc = count(r.monthlyPcQcCnt);
    const mobile = count(r.monthlyMobileQcCnt);
    if (typeof r.relKeyword !== 'string' || !pc || !mobile)
      throw new UpstreamFailure('LAYOUT_CHANGED', 'naver searchad: keyword row without relKeyword or counts');
    const key = hintKeyword(r.relKeyword);
    if (key !== '' && !out.has(key)) out.set(key, { volume: pc.n + mobile.n, low: pc.low && mobile.low });
  }
  return out;
}

export type SearchadOutcome =
  | { kind: 'ok'; volumes: Map<string, KeywordVolume> }
  | { kind: 'rate_limited' }
  | { kind: 'auth_failed'; detail: string }
  | { kind: 'retryable'; detail: string }
  | { kind: 'failed'; detail: string };

export function classifyKeywordTool(res: HttpResponse): SearchadOutcome {
  if (res.status === 429) return { kind: 'rate_limited' };
  if (res.status === 401 || res.status === 403) return { kind: 'auth_failed', detail: `HTTP ${res.status}` };
  if (res.status >= 500) return { kind: 'retryable', detail: `HTTP ${res.status}` };
  if (res.status < 200 || res.status >= 300) return { kind: 'failed', detail: `HTTP ${res.status}` };
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return { kind: 'failed', detail: 'body is not JSON' };
  }
  try {
    return { kind: 'ok', volumes: parseKeywordTool(body) };
  } catch (e) {
    if (e instanceof UpstreamFailure) return { kind: 'failed', detail: e.message };
    throw e;
  }
}
