import type { UpstreamFailureKind } from './engine-errors.js';

/**
 * Why a task's last attempt failed, beside the contract's fixed `error` string: what ended it (`code`), whose side
 * it was on (`origin`), a sentence a reader can act on, the upstream host it talked to and the attempts made. It is
 * persisted with the task, so polling after a restart shows the same. The sentence is built here from the failure
 * kind and the adapter's detail, cleaned of URLs' paths, queries and credentials, tokens and long opaque strings:
 * a detail is written for logs and must never carry a secret, and this is the second fence.
 */
export interface TaskFailure {
  code: TaskFailureCode;
  /** `upstream`: the engine's host (or the way to it) failed or refused; `aeq`: this service's side. */
  origin: 'upstream' | 'aeq';
  message: string;
  /** host[:port] the attempt talked to; null when it never reached one. */
  upstreamHost: string | null;
  /** Attempts made, the last included. */
  attempts: number;
}

/** aeq's own reasons: its bug, an engine it cannot serve, pools without room, a worker that stopped. */
export const SERVICE_FAILURE_CODES = [
  'INTERNAL_ERROR',
  'ENGINE_UNAVAILABLE',
  'NO_IP_AVAILABLE',
  'NO_ACCOUNT_AVAILABLE',
  'WORKER_LOST',
] as const;
export type ServiceFailureCode = (typeof SERVICE_FAILURE_CODES)[number];
type TaskFailureCode = UpstreamFailureKind | ServiceFailureCode;

/** The opening of the sentence for each upstream failure kind; the adapter's cleaned detail follows in brackets. */
const UPSTREAM_LEADS: Record<UpstreamFailureKind, string> = {
  UPSTREAM_BLOCKED: 'The upstream answered with a block or captcha page',
  CONSENT_REQUIRED: 'The upstream asked for a login or a consent',
  RATE_LIMITED: 'The upstream refused for too many requests',
  AUTH_FAILED: 'The upstream refused the credentials',
  PROVIDER_REFUSED: 'The provider refused the request (quota, billing, key or model)',
  LAYOUT_CHANGED: "The upstream's answer did not have the expected shape",
  NO_ANSWER: 'The upstream answered without a result',
  UPSTREAM_ERROR: 'The upstream or the connection to it failed',
  TIMEOUT: 'The upstream did not finish answering within the time limit',
  CONTENT_UNREADABLE: 'The page has no readable content',
  BAD_PAYLOAD: 'The payload cannot be served as given',
  PAGE_UNAVAILABLE: 'The page cannot be read anonymously',
};

export function upstreamFailure(
  kind: UpstreamFailureKind,
  detail: string,
  o: { upstreamHost: string | null; attempts: number; secrets: readonly string[] },
): TaskFailure {
  const clean = cleanDetail(detail, o.secrets);
  const message = clean ? `${UPSTREAM_LEADS[kind]} (${clean}).` : `${UPSTREAM_LEADS[kind]}.`;
  return { code: kind, origin: 'upstream', message, upstreamHost: o.upstreamHost, attempts: o.attempts };
}

/** A failure on aeq's side; `message` is written by aeq, never copied from an upstream or an exception. */
export function serviceFailure(
  code: ServiceFailureCode,
  message: string,
  o: { upstreamHost?: string | null; attempts: number },
): TaskFailure {
  return { code, origin: 'aeq', message, upstreamHost: o.upstreamHost ?? null, attempts: o.attempts };
}

/** Longest detail kept, in characters: a reason, not a body. */
const MAX_DETAIL = 200;
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]+/gi;
const USERINFO = /(?<![^\s/@:])[^\s/@:]+:[^\s/@]+@(?=[a-z0-9[])/gi;
const CREDENTIAL_WORD = new RegExp(
  String.raw`\b(bearer|basic|token|access[_-]?token|api[_-]?key|apikey|key|secret|password|passwd|pwd|session|` +
    String.raw`cookie|authorization|signature|sig)(\s*[=:]\s*|\s+)[^\s,;)]+`,
  'gi',
);
/**
 * A run of 20 or more token characters with letters and digits is taken for a key or a token, whatever it is; dots
 * end a run, so host names stay.
 */
const OPAQUE = /[A-Za-z0-9_\-+/=]{20,}/g;

/**
 * An adapter's detail, fit for a client: URLs reduced to their host, userinfo, credential-like words' values, long
 * opaque strings and the service's own secrets removed, control characters dropped, at most MAX_DETAIL characters.
 */
export function cleanDetail(detail: string, secrets: readonly string[] = []): string {
  let s = detail;
  for (const secret of secrets) if (secret.length >= 4) s = s.split(secret).join('[redacted]');
  s = s.replace(URL_IN_TEXT, (u) => hostForDetail(u));
  s = s.replace(USERINFO, '');
  s = s.replace(CREDENTIAL_WORD, (_m, word: string, sep: string) => `${word}${sep}[redacted]`);
  s = s.replace(OPAQUE, (run) => (/\d/.test(run) && /[A-Za-z]/.test(run) ? '[redacted]' : run));
  s = s
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (s.length > MAX_DETAIL) s = `${s.slice(0, MAX_DETAIL - 1)}…`;
  return s.replace(/(?<![.\s])[.\s]+$/, '');
}

/** What a failure detail keeps of a URL: its host and port (a path or query may carry a secret). */
function hostForDetail(url: string): string {
  try {
    const u = new URL(url);
    return u.host || '[url]';
  } catch {
    return '[url]';
  }
}

/** host[:port] of an upstream scope (`host/path-prefix`, or the task type when the engine has no base URL). */
export function hostOfScope(scope: string): string | null {
  const host = scope.split('/')[0] ?? '';
  return /[.:]/.test(host) ? host : null;
}

/** The stored form (a JSON text column) back to the record; anything unreadable reads as none. */
export function parseTaskFailure(text: string | null): TaskFailure | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as Partial<TaskFailure> | null;
    if (!v || typeof v.code !== 'string' || typeof v.message !== 'string') return null;
    return {
      code: v.code,
      origin: v.origin === 'upstream' ? 'upstream' : 'aeq',
      message: v.message,
      upstreamHost: typeof v.upstreamHost === 'string' ? v.upstreamHost : null,
      attempts: typeof v.attempts === 'number' ? v.attempts : 0,
    };
  } catch {
    return null;
  }
}
