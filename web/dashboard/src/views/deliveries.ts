import type { AeqClient } from '../../../../packages/client/src/client.js';
import type { DeliveryLog } from '../../../../packages/client/src/types.js';
import { ErrorBox, Head, Loading, TableWrap } from '../components/bits.js';
import { when } from '../format.js';
import { html } from '../html.js';
import { useLoad } from '../poll.js';

/** A delivery still has attempts ahead in these states: the log is read again until it leaves them. */
const OPEN = new Set(['pending', 'sending']);

/** What an attempt's outcome means to a reader. */
const OUTCOMES: Record<string, string> = {
  delivered: 'delivered',
  retry: 'failed, retried later',
  abandoned: 'failed, given up',
  undeliverable: 'refused to send (address not allowed)',
  in_flight: 'sending',
};

/**
 * A task's webhook delivery log (GET /v1/async/task/{id}/deliveries) as a table: where it goes (host only), its
 * state, then every attempt with its time, outcome, HTTP status, error code and latency. Followed while open.
 */
export function DeliveryLogView({
  client,
  id,
  onKeyRefused,
}: {
  client: AeqClient;
  id: string;
  onKeyRefused: () => void;
}) {
  const log = useLoad<DeliveryLog>(() => client.deliveries(id), `deliveries|${id}`, {
    everyMs: (d) => (d.webhook && OPEN.has(d.webhook.status ?? '') ? 2000 : null),
    onKeyRefused,
  });
  const hook = log.data?.webhook;
  const attempts = hook?.attempts ?? [];
  return html`<section class="card deliveries" aria-labelledby="deliveries-title">
    <h2 id="deliveries-title">Webhook deliveries</h2>
    <${ErrorBox} error=${log.error} />
    ${log.data === null && !log.error ? html`<${Loading} what="the delivery log" />` : null}
    ${
      hook
        ? html`<p class="delivery-state">
              To <code>${hook.targetHost}</code> — <span class="delivery-status">${hook.status}</span>
              ${hook.redeliveries ? ` · ${hook.redeliveries} redelivered by hand` : ''}
              ${hook.nextAttemptAt ? ` · next attempt ${when(hook.nextAttemptAt)}` : ''}
            </p>
            ${
              attempts.length === 0
                ? html`<p class="muted">No attempt yet.</p>`
                : html`<${TableWrap} label="Delivery attempts">
                    <table class="delivery-attempts">
                      <${Head} cols=${['Delivery', 'Attempt', 'At', 'Outcome', 'HTTP', 'Error', 'Latency']} />
                      <tbody>
                        ${attempts.map(
                          (a) => html`<tr data-outcome=${a.outcome}>
                            <td>${a.delivery ? `redelivery ${a.delivery}` : 'first'}</td>
                            <td>${a.attempt}</td>
                            <td class="nowrap">${when(a.at)}</td>
                            <td class="attempt-outcome">${OUTCOMES[a.outcome ?? ''] ?? a.outcome}</td>
                            <td class="attempt-http">${a.httpStatus ?? '—'}</td>
                            <td class="attempt-error">${a.errorCode ? html`<code>${a.errorCode}</code>` : '—'}</td>
                            <td class="nowrap">${typeof a.latencyMs === 'number' ? `${a.latencyMs} ms` : '—'}</td>
                          </tr>`,
                        )}
                      </tbody>
                    </table>
                  <//>`
            }`
        : null
    }
  </section>`;
}
