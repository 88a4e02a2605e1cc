import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HttpRequest, HttpResponse } from '../../transport/http-transport.js';
import type { PromptResearchConfig } from '../config.js';
import {
  parseGoogleChrome,
  parseGoogleFirefox,
  parseGoogleGwsWiz,
  parseNaverAc,
  type ParsedSuggestions,
} from './suggest-parsers.js';
import { acceptLanguage, USER_AGENTS } from '../../transport/identity.js';

/** Autocomplete providers of §3.1 / §3.4: request building and answer classification. */

export type ProviderName = 'google' | 'naver';

export type ProviderOutcome =
  | { kind: 'ok'; parsed: ParsedSuggestions }
  | { kind: 'rate_limited' }
  | { kind: 'blocked' }
  /** 5xx or transport trouble: worth one retry. */
  | { kind: 'retryable'; detail: string }
  | { kind: 'failed'; failure: UpstreamFailure };

export interface ProviderClient {
  readonly name: ProviderName;
  request(query: string): HttpRequest;
  classify(res: HttpResponse, query: string): ProviderOutcome;
}

/** Same text after `norm`-like cleanup (the echo check catches mangled encodings, §3.4). */
function sameQuery(a: string, b: string): boolean {
  const clean = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
  return clean(a) === clean(b);
}

function parsed(
  res: HttpResponse,
  query: string,
  parse: (text: string) => ParsedSuggestions,
  who: string,
): ProviderOutcome {
  try {
    const p = parse(res.text());
    if (p.echo !== null && !sameQuery(p.echo, query)) {
      return {
        kind: 'failed',
        failure: new UpstreamFailure('UPSTREAM_ERROR', `${who} echoed a different query (encoding problem)`),
      };
    }
    return { kind: 'ok', parsed: p };
  } catch (e) {
    if (e instanceof UpstreamFailure) return { kind: 'failed', failure: e };
    throw e;
  }
}

export function googleClient(
  baseUrl: string,
  country: 'KR' | 'US',
  format: PromptResearchConfig['googleClient'],
): ProviderClient {
  const hl = country === 'KR' ? 'ko' : 'en';
  const gl = country === 'KR' ? 'kr' : 'us';
  const parse = format === 'chrome' ? parseGoogleChrome : format === 'gws-wiz' ? parseGoogleGwsWiz : parseGoogleFirefox;
  return {
    name: 'google',
    request(query) {
      const q = encodeURIComponent(query);
      return {
        method: 'GET',
        url: `${baseUrl}/complete/search?client=${format}&q=${q}&hl=${hl}&gl=${gl}&ie=UTF-8&oe=UTF-8`,
        headers: {
          'user-agent': USER_AGENTS.desktopChrome,
          'accept-language': acceptLanguage(country === 'KR' ? 'ko-KR' : 'en-US'),
        },
        followRedirects: false,
      };
    },
    classify(res, query) {
      if (res.status === 429) return { kind: 'rate_limited' };
      const location = res.headers.location ?? '';
      if ((res.status >= 300 && res.status < 400 && /\/sorry\//.test(location)) || res.status === 403)
        return { kind: 'blocked' };
      if (res.status >= 500) return { kind: 'retryable', detail: `HTTP ${res.status}` };
      if (res.status < 200 || res.status >= 300)
        return {
          kind: 'failed',
          failure: new UpstreamFailure('UPSTREAM_ERROR', `google suggest answered HTTP ${res.status}`),
        };
      const head = res.body.subarray(0, 2048).toString('latin1');
      if (/\/sorry\/|unusual traffic|g-recaptcha/i.test(head) && /<html/i.test(head)) return { kind: 'blocked' };
      return parsed(res, query, parse, 'google suggest');
    },
  };
}

export function naverClient(baseUrl: string): ProviderClient {
  return {
    name: 'naver',
    request(query) {
      const q = encodeURIComponent(query);
      return {
        method: 'GET',
        url:
          `${baseUrl}/nx/ac?q=${q}&con=1&frm=nv&ans=2&r_format=json&r_enc=UTF-8` +
          '&r_unicode=0&t_koreng=1&run=2&rev=4&q_enc=UTF-8&st=100',
        headers: {
          'user-agent': USER_AGENTS.desktopChrome,
          referer: 'https://search.naver.com/',
          'accept-language': acceptLanguage('ko-KR'),
        },
        followRedirects: false,
      };
    },
    classify(res, query) {
      if (res.status === 429) return { kind: 'rate_limited' };
      const text = res.status === 403 || /html/i.test(res.headers['content-type'] ?? '') ? res.text() : '';
      if (res.status === 403 || /비정상적인 검색|자동\s?입력 방지/.test(text)) return { kind: 'blocked' };
      if (res.status >= 500) return { kind: 'retryable', detail: `HTTP ${res.status}` };
      if (res.status < 200 || res.status >= 300)
        return {
          kind: 'failed',
          failure: new UpstreamFailure('UPSTREAM_ERROR', `naver ac answered HTTP ${res.status}`),
        };
      return parsed(res, query, parseNaverAc, 'naver ac');
    },
  };
}
