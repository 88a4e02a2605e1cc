import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com/): every delivery carries `webhook-id` (the same on
 * every retry of one delivery), `webhook-timestamp` (seconds, the time of the attempt) and `webhook-signature`:
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret of the delivery's account (account-secrets.ts),
 * space-separated, so a receiver keeps verifying while the account rotates its secret. The body signed is the exact
 * string sent.
 */
export interface WebhookSecret {
  /** The key bytes: the base64 part of `whsec_<base64>`, decoded. */
  key: Buffer;
}

/** The keys of validated `whsec_<base64>` secrets (src/config/settings.ts checks the format at start-up). */
export function secretKeys(secrets: readonly string[]): WebhookSecret[] {
  return secrets.map((s) => ({ key: Buffer.from(s.replace(/^whsec_/, ''), 'base64') }));
}

/** The delivery's id: stable across one delivery's retries; a redelivery (n ≥ 1) of the task gets its own. */
function webhookId(taskId: string, redelivery = 0): string {
  return redelivery === 0 ? `msg_${taskId}` : `msg_${taskId}_r${redelivery}`;
}

function signatureHeader(secrets: readonly WebhookSecret[], id: string, timestamp: number, body: string): string {
  const content = `${id}.${timestamp}.${body}`;
  return secrets.map((s) => `v1,${createHmac('sha256', s.key).update(content, 'utf8').digest('base64')}`).join(' ');
}

/** The Standard Webhooks headers of one attempt (no signature without secrets). */
export function webhookHeaders(
  secrets: readonly WebhookSecret[],
  taskId: string,
  redelivery: number,
  body: string,
  nowMs: number,
): Record<string, string> {
  const id = webhookId(taskId, redelivery);
  const timestamp = Math.floor(nowMs / 1000);
  const headers: Record<string, string> = { 'webhook-id': id, 'webhook-timestamp': String(timestamp) };
  if (secrets.length > 0) headers['webhook-signature'] = signatureHeader(secrets, id, timestamp, body);
  return headers;
}
