import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HttpResponse, HttpTransport } from '../../transport/http-transport.js';

/** Cloudflare-style and Microsoft challenge pages served instead of JSON. */
const CHALLENGE_MARKERS = [
  /cf-chl-|challenge-platform|cf_chl_opt/i,
  /<title>\s*Just a moment/i,
  /CaptchaChallenge/i,
  /turnstile/i,
];

function isChallengePage(res: HttpResponse): boolean {
  const type = res.headers['content-type'] ?? '';
  if (type.includes('json')) return false;
  const body = res.text().slice(0, 64 * 1024);
  return CHALLENGE_MARKERS.some((re) => re.test(body)) || res.headers['cf-mitigated'] === 'challenge';
}

/** Shared status handling of the Copilot HTTP calls (docs/engines.md#copilot-chat block signals). */
function assertCopilotStatus(res: HttpResponse, call: string): void {
  if (isChallengePage(res) && (res.status === 200 || res.status === 403 || res.status === 503 || res.status === 429)) {
    throw new UpstreamFailure('UPSTREAM_BLOCKED', `copilot ${call}: challenge page (HTTP ${res.status})`);
  }
  if (res.status >= 200 && res.status < 300) return;
  if (res.status === 403) throw new UpstreamFailure('UPSTREAM_BLOCKED', `copilot ${call} answered 403`);
  if (res.status === 429) {
    const retryAfter = Number(res.headers['retry-after']);
    const opts = Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {};
    throw new UpstreamFailure('RATE_LIMITED', `copilot ${call} answered 429`, opts);
  }
  if (res.status === 401) throw new UpstreamFailure('CONSENT_REQUIRED', `copilot ${call} needs a signed-in session`);
  throw new UpstreamFailure('UPSTREAM_ERROR', `copilot ${call} answered HTTP ${res.status}`);
}

function jsonObject(res: HttpResponse, call: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = res.json();
  } catch {
    throw new UpstreamFailure('UPSTREAM_ERROR', `copilot ${call} answered malformed JSON`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new UpstreamFailure('LAYOUT_CHANGED', `copilot ${call}: answer is not a JSON object`);
  return v as Record<string, unknown>;
}

export interface CopilotCall {
  http: HttpTransport;
  baseUrl: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

/**
 * GET /c/api/user. 401 only says the session is anonymous, which Copilot serves in many regions, so
 * the caller continues; a challenge or 403 is a block. Returns whether the session is signed in.
 */
export async function fetchCopilotUser(c: CopilotCall): Promise<{ signedIn: boolean; status: number }> {
  const res = await c.http.request({
    method: 'GET',
    url: `${c.baseUrl}/c/api/user`,
    headers: { ...c.headers, accept: 'application/json' },
    signal: c.signal,
  });
  if (res.status === 401 && !isChallengePage(res)) return { signedIn: false, status: 401 };
  assertCopilotStatus(res, 'GET /c/api/user');
  const user = jsonObject(res, 'GET /c/api/user');
  // Only whether a name is present is kept: the profile itself is personal data.
  return { signedIn: typeof user.firstName === 'string' && user.firstName !== '', status: res.status };
}

/** POST /c/api/conversations → the conversation id the chat frame refers to. */
export async function createConversation(c: CopilotCall): Promise<string> {
  const res = await c.http.request({
    method: 'POST',
    url: `${c.baseUrl}/c/api/conversations`,
    headers: { ...c.headers, accept: 'application/json' },
    signal: c.signal,
  });
  assertCopilotStatus(res, 'POST /c/api/conversations');
  const body = jsonObject(res, 'POST /c/api/conversations');
  if (typeof body.id !== 'string' || body.id === '')
    throw new UpstreamFailure('LAYOUT_CHANGED', 'copilot: conversation answer has no id');
  return body.id;
}
