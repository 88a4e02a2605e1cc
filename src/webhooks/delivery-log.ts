import { targetHostOf } from '../domain/webhook-target.js';
import { isoOrNull } from '../domain/clock.js';
import type { DeliveryLogRow } from '../store/ports.js';

/**
 * The delivery log a client reads (GET /v1/async/task/{id}/deliveries): per attempt its time, latency, the HTTP
 * status or the error code, and the next attempt it scheduled. The target is shown by host only: a webhook URL's
 * path and query may carry the receiver's own token, and credentials never leave the service.
 */
interface DeliveryAttemptView {
  /** 0 the first delivery, n the n-th redelivery (whose webhook-id is `msg_<task id>_r<n>`). */
  delivery: number;
  /** The attempt's number within its delivery (1 to 5). */
  attempt: number;
  at: string;
  latencyMs: number | null;
  outcome: 'delivered' | 'retry' | 'abandoned' | 'undeliverable' | 'in_flight';
  httpStatus: number | null;
  /** The error code of a failed attempt without an HTTP answer (`ECONNREFUSED`, `timeout`, `PRIVATE_ADDRESS`). */
  errorCode: string | null;
  nextAttemptAt: string | null;
}

export interface DeliveryLogView {
  targetHost: string;
  status: 'pending' | 'sending' | 'delivered' | 'abandoned';
  redeliveries: number;
  /** When the next attempt is due while the delivery is pending, else null. */
  nextAttemptAt: string | null;
  attempts: DeliveryAttemptView[];
}

/** `undeliverable: PRIVATE_ADDRESS: target …` → PRIVATE_ADDRESS; `ECONNREFUSED: connect …` → ECONNREFUSED. */
function errorCodeOf(error: string | null): string | null {
  if (!error) return null;
  const rest = error.replace(/^undeliverable:\s*/, '');
  const code = /^([A-Za-z_][A-Za-z0-9_]*)(?::|$)/.exec(rest)?.[1];
  return code ?? 'ERROR';
}

/** host[:port] of a webhook URL: no path, query or credentials. */

export function deliveryLogView(row: DeliveryLogRow): DeliveryLogView {
  const status = row.status.toLowerCase() as DeliveryLogView['status'];
  return {
    targetHost: targetHostOf(row.url),
    status,
    nextAttemptAt: status === 'pending' ? isoOrNull(row.nextAttemptAt) : null,
    redeliveries: row.redeliveries,
    attempts: row.attempts.map((a, i) => {
      const outcome: DeliveryAttemptView['outcome'] =
        a.outcome === null
          ? 'in_flight'
          : a.outcome === 'abandoned' && a.error?.startsWith('undeliverable')
            ? 'undeliverable'
            : (a.outcome as DeliveryAttemptView['outcome']);
      // Attempts are numbered across deliveries in the store; a delivery's own count restarts at 1.
      const firstOfDelivery = row.attempts.findIndex((x) => x.delivery === a.delivery);
      return {
        delivery: a.delivery,
        attempt: i - firstOfDelivery + 1,
        at: new Date(a.startedAt).toISOString(),
        latencyMs: a.finishedAt === null ? null : a.finishedAt - a.startedAt,
        outcome,
        httpStatus: a.httpStatus,
        errorCode: a.httpStatus === null ? errorCodeOf(a.error) : null,
        nextAttemptAt: isoOrNull(a.nextAttemptAt),
      };
    }),
  };
}
