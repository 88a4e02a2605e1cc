import type { DeliveryOutcome } from '../store/ports.js';

/**
 * The webhook retry schedule. A delivery (the first, and each redelivery on its own) has five attempts: the first at
 * once, then after each failure a wait of base, 2×, 4×, 8× base: 2, 4, 8 and 16 minutes with the default base
 * (`AEQ_WEBHOOK_RETRY_BASE_MS`, src/config/settings.ts). Every failure counts alike: an HTTP status outside 2xx, a
 * network fault, a target refused as private or a name that does not resolve (a name may resolve later, and a refused
 * address costs an attempt but no connection), a signing secret that could not be read. After the fifth failure the
 * delivery is abandoned.
 */
const WEBHOOK_MAX_ATTEMPTS = 5;

/** The attempt number within its delivery (1..5) of the store's running attempt count. */
export function attemptOfDelivery(attempt: number, attemptsBefore: number): number {
  return attempt - attemptsBefore;
}

/** Whether the last attempt of a delivery has already been started (by a sender that died before recording it). */
export function attemptsSpent(ofDelivery: number): boolean {
  return ofDelivery > WEBHOOK_MAX_ATTEMPTS;
}

/** What a failed attempt leads to: the next attempt on the schedule, or abandoning the delivery after the last. */
export function afterFailure(
  ofDelivery: number,
  failedAt: number,
  baseMs: number,
  error: string,
  httpStatus: number | null,
): DeliveryOutcome {
  if (ofDelivery >= WEBHOOK_MAX_ATTEMPTS) return { kind: 'abandoned', error, httpStatus };
  return { kind: 'retry', at: failedAt + baseMs * 2 ** (ofDelivery - 1), error, httpStatus };
}
