import type { AeqClient } from '../../../../packages/client/src/client.js';
import type { BatchList, BatchStatus } from '../../../../packages/client/src/types.js';
import { ErrorBox, Head, listBody, Loading, Progress, StatusBadge, TableWrap } from '../components/bits.js';
import { when } from '../format.js';
import { html } from '../html.js';
import { useLoad } from '../poll.js';
import { href } from '../router.js';

type Counts = Record<string, number | undefined> | undefined;
const countsText = (c: Counts) =>
  ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'].map((s) => `${c?.[s] ?? 0} ${s.toLowerCase()}`).join(' · ');

/** The account's batches, newest first, with live progress while any is running. */
export function BatchesView({ client, onKeyRefused }: { client: AeqClient; onKeyRefused: () => void }) {
  const list = useLoad<BatchList>(() => client.batches({ limit: 20 }), 'batches', {
    everyMs: (d) => ((d.batches ?? []).some((b) => !b.completedAt) ? 2000 : null),
    onKeyRefused,
  });
  const batches = list.data?.batches ?? [];
  return html`<div>
    <h1>Batches</h1>
    <${ErrorBox} error=${list.error} />
    ${listBody(
      list,
      batches.length,
      'batches',
      'No batch in the last 24 hours.',
      () =>
        html`<${TableWrap} label="Batches">
              <table>
                <${Head} cols=${['Created', 'Batch', 'Progress', 'Tasks', 'Completed']} />
                <tbody>
                  ${batches.map(
                    (b) => html`<tr>
                      <td class="nowrap">${when(b.createdAt)}</td>
                      <td>
                        <a href=${href(`batches/${b.id}`)}>
                          ${b.size} ${b.size === 1 ? 'item' : 'items'}
                          <span class="muted small">…${b.id?.slice(-8)}</span>
                        </a>
                      </td>
                      <td>
                        <${Progress} done=${b.done ?? 0} total=${b.total ?? 0} label=${`Batch …${b.id?.slice(-8)}`} />
                      </td>
                      <td class="muted">${countsText(b.counts as Counts)}</td>
                      <td class="nowrap">${b.completedAt ? when(b.completedAt) : 'running'}</td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            <//>`,
    )}
  </div>`;
}

/** One batch: progress updated every second until it completes, and its items in order. */
export function BatchView({ client, id, onKeyRefused }: { client: AeqClient; id: string; onKeyRefused: () => void }) {
  const b = useLoad<BatchStatus>(() => client.batch(id, { limit: 500 }), id, {
    everyMs: (d) => (d.batch?.completedAt ? null : 1000),
    onKeyRefused,
  });
  if (b.data === null) return b.error ? html`<${ErrorBox} error=${b.error} />` : html`<${Loading} what="the batch" />`;
  const batch = b.data.batch;
  const items = b.data.items ?? [];
  const done = batch?.completedAt != null;
  return html`<article class="batch" data-batch-id=${batch?.id} data-completed=${done ? 'true' : 'false'}>
    <p class="crumbs"><a href=${href('batches')}>Batches</a> / ${batch?.id}</p>
    <h1>Batch of ${batch?.size} ${batch?.size === 1 ? 'item' : 'items'}</h1>
    <${ErrorBox} error=${b.error} />
    <div class="card">
      <${Progress} done=${batch?.done ?? 0} total=${batch?.total ?? 0} label="Batch progress" />
      <p class="batch-state" role="status" aria-live="polite">
        ${done ? `Completed ${when(batch?.completedAt)}` : 'Running'} — ${countsText(batch?.counts as Counts)}
        ${batch?.rejected ? ` · ${batch.rejected} refused at submission` : ''}
      </p>
      <p class="muted">
        Created ${when(batch?.createdAt)}${batch?.webhook ? ` · webhook to ${batch.webhook.targetHost}` : ''}
      </p>
    </div>
    <${TableWrap} label="Batch items">
      <table>
        <caption class="muted">
          ${items.length === (batch?.total ?? 0) ? 'Every item' : `The first ${items.length} items`},
          in submission order
        </caption>
        <${Head} cols=${['#', 'Task', 'Status']} />
        <tbody>
          ${items.map(
            (i) => html`<tr>
              <td>${i.index}</td>
              <td><a href=${href(`tasks/${i.taskId}`)}>${i.taskId}</a></td>
              <td><${StatusBadge} status=${i.status} /></td>
            </tr>`,
          )}
        </tbody>
      </table>
    <//>
  </article>`;
}
