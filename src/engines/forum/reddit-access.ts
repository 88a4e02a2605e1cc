import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext } from '../adapter.js';
import { asObject, num, str } from './reddit-things.js';

/**
 * How this attempt reaches Reddit (docs/engines.md#reddit-access). With `options.clientId` and
 * `options.clientSecret`: an app-only OAuth token and `oauth.reddit.com` paths without `.json`.
 * Without them: `baseUrl` anonymously with the `.json` suffix.
 *
 * Options (FORUM `upstream.options`):
 * - `userAgent`: the descriptive User-Agent Reddit requires (`<platform>:<app id>:<version> (by /u/<name>)`).
 * - `clientId`, `clientSecret`: app credentials; secrets, never logged or returned.
 * - `oauthBaseUrl`: default `https://oauth.reddit.com` when `baseUrl` is a public reddit.com host,
 *   otherwise `baseUrl` itself (a simulator or mirror serves both forms under one base).
 * - `authBaseUrl`: where `/api/v1/access_token` lives; default `baseUrl`.
 */
export interface RedditAccess {
  mode: 'oauth' | 'anonymous';
  base: string;
  /** `.json` on the www host; nothing on the OAuth host. */
  suffix: string;
  headers: Record<string, string>;
  /** Drops a cached token the API refused, so the next attempt fetches a fresh one. */
  invalidate(): void;
}

const DEFAULT_USER_AGENT = 'server:aeq:0.1.0 (by /u/aeq-service)';
/** Refresh tokens this long before Reddit expires them (they last 24 h). */
const EXPIRY_MARGIN_MS = 5 * 60_000;

interface CachedToken {
  token: string;
  expiresAt: number;
}
/** App-only tokens per process, by token endpoint and client id. */
const tokens = new Map<string, CachedToken>();

export async function redditAccess(ctx: AttemptContext, now: () => number = Date.now): Promise<RedditAccess> {
  const { upstream } = ctx.config;
  const opt = (k: string) =>
    typeof upstream.options[k] === 'string' && upstream.options[k] !== '' ? String(upstream.options[k]) : null;
  const userAgent = opt('userAgent') ?? DEFAULT_USER_AGENT;
  const headers: Record<string, string> = { accept: 'application/json', ...upstream.headers, 'user-agent': userAgent };
  const clientId = opt('clientId');
  const clientSecret = opt('clientSecret');
  const baseUrl = upstream.baseUrl.replace(/(?<!\/)\/+$/, '');
  if (!clientId || !clientSecret)
    return { mode: 'anonymous', base: baseUrl, suffix: '.json', headers, invalidate: () => undefined };

  const authBase = (opt('authBaseUrl') ?? baseUrl).replace(/(?<!\/)\/+$/, '');
  const oauthBase = (opt('oauthBaseUrl') ?? defaultOauthBase(baseUrl)).replace(/(?<!\/)\/+$/, '');
  const key = `${authBase}\u0000${clientId}`;
  let cached = tokens.get(key);
  if (!cached || cached.expiresAt <= now()) {
    cached = await fetchToken(ctx, authBase, clientId, clientSecret, userAgent, now);
    tokens.set(key, cached);
  }
  return {
    mode: 'oauth',
    base: oauthBase,
    suffix: '',
    headers: { ...headers, authorization: `bearer ${cached.token}` },
    invalidate: () => tokens.delete(key),
  };
}

function defaultOauthBase(baseUrl: string): string {
  try {
    return /^(www\.|old\.)?reddit\.com$/i.test(new URL(baseUrl).hostname) ? 'https://oauth.reddit.com' : baseUrl;
  } catch {
    return baseUrl;
  }
}

async function fetchToken(
  ctx: AttemptContext,
  authBase: string,
  clientId: string,
  clientSecret: string,
  userAgent: string,
  now: () => number,
): Promise<CachedToken> {
  const res = await ctx.http.request({
    method: 'POST',
    url: `${authBase}/api/v1/access_token`,
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': userAgent,
      accept: 'application/json',
    },
    body: 'grant_type=client_credentials',
    followRedirects: false,
    signal: ctx.signal,
  });
  // Never echo the body or the credentials: details go to logs.
  if (res.status === 429) throw new UpstreamFailure('RATE_LIMITED', 'reddit token endpoint answered 429');
  if (res.status === 401 || res.status === 403)
    throw new UpstreamFailure(
      'AUTH_FAILED',
      `reddit token endpoint refused the client credentials (HTTP ${res.status})`,
    );
  if (res.status < 200 || res.status >= 300)
    throw new UpstreamFailure('UPSTREAM_ERROR', `reddit token endpoint answered HTTP ${res.status}`);
  let body: Record<string, unknown> | null;
  try {
    body = asObject(res.json());
  } catch {
    throw new UpstreamFailure('UPSTREAM_ERROR', 'reddit token endpoint answered malformed JSON');
  }
  const token = str(body?.access_token);
  if (!token) {
    const error = str(body?.error) ?? 'no access_token';
    throw new UpstreamFailure('AUTH_FAILED', `reddit token endpoint gave no token (${error.slice(0, 40)})`);
  }
  const expiresIn = num(body?.expires_in) ?? 3600;
  return { token, expiresAt: now() + Math.max(60_000, expiresIn * 1000 - EXPIRY_MARGIN_MS) };
}
