import type { AeqClient } from '../../../../packages/client/src/client.js';
import type { BatchList, BatchStatus } from '../../../../packages/client/src/types.js';
import { ErrorBox, Head, listBody, Loading, Progress, StatusBadge, TableWrap } from '../components/bits.js';
import { askedOf, when } from '../format.js';
import { html } from '../html.js';
import { useLoad } from '../poll.js';
import { href } from '../router.js';

type Counts = Record<string, number | undefined> | undefined;
const countsText = (c: Counts) =>
  ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'].map((s) => `${c?.[s] ?? 0} ${s.toLowerCase()}`).join(' · ');

/** The monitor run whose tasks form a batch. */
interface RunOfBatch {
  monitorId: string;
  monitor: string;
  trigger: string;
  slotAt: string | undefined;
}

/**
 * The batches of the account's monitor runs, by batch id: a monitor's run submits its tasks as a batch, which the
 * batch listing does not tell apart from one a client submitted. Read from each monitor's latest runs (100 reach past
 * the 24 hours batches are kept unless runs were started by hand that often).
 */
async function monitorRunBatches(client: AeqClient): Promise<Map<string, RunOfBatch>> {
  const out = new Map<string, RunOfBatch>();
  let cursor: string | undefined;
  do {
    const page = await client.monitors({ limit: 100, ...(cursor ? { cursor } : {}) });
    for (const m of page.monitors ?? []) {
      if (!m.id) continue;
      const { runs } = await client.monitorRuns(m.id, { limit: 100 });
      for (const r of runs ?? [])
        if (r.batchId)
          out.set(r.batchId, {
            monitorId: m.id,
            monitor: m.name ?? m.id,
            trigger: r.trigger ?? 'schedule',
            slotAt: r.slotAt,
          });
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/** "Monitor run" and the monitor's name, linked to the monitor, for a batch a monitor's run submitted. */
function MonitorLabel({ run }: { run: RunOfBatch | undefined }) {
  if (!run) return null;
  return html`<span class="batch-origin">
    <span class="badge monitor-run">monitor run</span>
    <a href=${href(`monitors/${run.monitorId}`)}>${run.monitor}</a>
  </span>`;
}

/** The account's batches, newest first, with live progress while any is running. */
export function BatchesView({ client, onKeyRefused }: { client: AeqClient; onKeyRefused: () => void }) {
  const list = useLoad<BatchList>(() => client.batches({ limit: 20 }), 'batches', {
    everyMs: (d) => ((d.batches ?? []).some((b) => !b.completedAt) ? 2000 : null),
    onKeyRefused,
  });
  const batches = list.data?.batches ?? [];
  // Read again when a batch appears, not on every progress tick.
  const origins = useLoad(() => monitorRunBatches(client), `origins|${batches.map((b) => b.id).join(',')}`, {
    onKeyRefused,
  });
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
              <table class="batches">
                <${Head} cols=${['Created', 'Batch', 'Progress', 'Tasks', 'Completed']} />
                <tbody>
                  ${batches.map(
                    (b) => html`<tr data-batch-id=${b.id}>
                      <td class="nowrap">${when(b.createdAt)}</td>
                      <td>
                        <a href=${href(`batches/${b.id}`)}>
                          ${b.size} ${b.size === 1 ? 'item' : 'items'}
                          <span class="muted small">…${b.id?.slice(-8)}</span>
                        </a>
                        <${MonitorLabel} run=${b.id ? origins.data?.get(b.id) : undefined} />
                      </td>
                      <td>
                        <${Progress} done=${b.done ?? 0} total=${b.total ?? 0} failed=${b.counts?.FAILED ?? 0}
                          label=${`Batch …${b.id?.slice(-8)}`} />
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

/** One batch: progress updated every second until it completes, and its items in order with what each asked. */
export function BatchView({ client, id, onKeyRefused }: { client: AeqClient; id: string; onKeyRefused: () => void }) {
  const b = useLoad<BatchStatus>(() => client.batch(id, { limit: 500, includeRequest: true }), id, {
    everyMs: (d) => (d.batch?.completedAt ? null : 1000),
    onKeyRefused,
  });
  const origins = useLoad(() => monitorRunBatches(client), `origins|${id}`, { onKeyRefused });
  if (b.data === null) return b.error ? html`<${ErrorBox} error=${b.error} />` : html`<${Loading} what="the batch" />`;
  const batch = b.data.batch;
  const items = b.data.items ?? [];
  const done = batch?.completedAt != null;
  const run = origins.data?.get(id);
  return html`<article class="batch" data-batch-id=${batch?.id} data-completed=${done ? 'true' : 'false'}>
    <p class="crumbs"><a href=${href('batches')}>Batches</a> / ${batch?.id}</p>
    <h1>Batch of ${batch?.size} ${batch?.size === 1 ? 'item' : 'items'}</h1>
    ${
      run
        ? html`<p class="batch-run">
            <${MonitorLabel} run=${run} /> — the ${run.trigger === 'manual' ? 'run started by hand' : 'scheduled run'}
            of ${when(run.slotAt)}
          </p>`
        : null
    }
    <${ErrorBox} error=${b.error} />
    <div class="card">
      <${Progress} done=${batch?.done ?? 0} total=${batch?.total ?? 0} failed=${batch?.counts?.FAILED ?? 0}
        label="Batch progress" />
      <p class="batch-state" role="status" aria-live="polite">
        ${done ? `Completed ${when(batch?.completedAt)}` : 'Running'} — ${countsText(batch?.counts as Counts)}
        ${batch?.rejected ? ` · ${batch.rejected} refused at submission` : ''}
      </p>
      <p class="muted">
        Created ${when(batch?.createdAt)}${batch?.webhook ? ` · webhook to ${batch.webhook.targetHost}` : ''}
      </p>
    </div>
    <${TableWrap} label="Batch items">
      <table class="batch-items">
        <caption class="muted">
          ${items.length === (batch?.total ?? 0) ? 'Every item' : `The first ${items.length} items`},
          in submission order
        </caption>
        <${Head} cols=${['#', 'Engine', 'Country', 'Asked', 'Status']} />
        <tbody>
          ${items.map((i) => {
            const asked = askedOf({ task: { id: i.taskId }, request: i.request }, 90);
            return html`<tr data-task-id=${i.taskId}>
              <td>${i.index}</td>
              <td class="item-engine">${i.taskType}</td>
              <td class="item-country">${i.country ?? '—'}</td>
              <td class="item-asked"><a href=${href(`tasks/${i.taskId}`)}>${asked}</a></td>
              <td><${StatusBadge} status=${i.status} /></td>
            </tr>`;
          })}
        </tbody>
      </table>
    <//>
  </article>`;
}
