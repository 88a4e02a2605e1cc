import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signed deliveries older or newer than this (seconds) are refused: a replay. */
const TOLERANCE_S = 5 * 60;

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(h: Headers, name: string): string {
  const v =
    typeof (h as { get?: unknown }).get === 'function'
      ? (h as { get(n: string): string | null }).get(name)
      : (h as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

/**
 * Verifies a signed delivery (Standard Webhooks): `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the key of
 * `whsec_<base64>`, over the exact body bytes received, within five minutes of its timestamp. During a rotation the
 * header holds several signatures: one that matches is enough. Returns the parsed body; throws when it is not ours.
 */
export function verifyWebhook(
  headers: Headers,
  body: string | Uint8Array,
  secret: string,
  nowMs = Date.now(),
): unknown {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !/^\d+$/.test(timestamp) || !signatures)
    throw new Error('not a signed delivery: a webhook-* header is missing');
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > TOLERANCE_S)
    throw new Error('the delivery timestamp is too old or too new');
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${text}`).digest();
  const ok = signatures.split(' ').some((s) => {
    const [version, sig] = s.split(',');
    if (version !== 'v1' || !sig) return false;
    const given = Buffer.from(sig, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) throw new Error('no signature of the delivery matches the secret');
  return JSON.parse(text) as unknown;
}
