import type { AeqClient } from '../../../../packages/client/src/client.js';
import type { MonitorList } from '../../../../packages/client/src/types.js';
import { ErrorBox, Head, listBody, TableWrap } from '../components/bits.js';
import { whenIn } from '../format.js';
import { html } from '../html.js';
import { useLoad } from '../poll.js';
import { href } from '../router.js';

/** The account's monitors. */
export function MonitorsView({ client, onKeyRefused }: { client: AeqClient; onKeyRefused: () => void }) {
  const list = useLoad<MonitorList>(() => client.monitors({ limit: 100 }), 'monitors', { onKeyRefused });
  const monitors = list.data?.monitors ?? [];
  return html`<div>
    <h1>Monitors</h1>
    <${ErrorBox} error=${list.error} />
    ${listBody(
      list,
      monitors.length,
      'monitors',
      'No monitor yet: create one with POST /v1/monitors.',
      () =>
        html`<${TableWrap} label="Monitors">
              <table>
                <${Head} cols=${['Monitor', 'Brand', 'Prompts × engines × countries', 'Status', 'Next run']} />
                <tbody>
                  ${monitors.map(
                    (m) => html`<tr>
                      <td><a href=${href(`monitors/${m.id}`)}>${m.name}</a></td>
                      <td>${m.brand?.name}</td>
                      <td>${m.prompts?.length} × ${m.engines?.length} × ${m.countries?.length} = ${m.tasksPerRun}</td>
                      <td><span class=${`badge monitor-${m.status}`}>${m.status}</span></td>
                      <td class="nowrap">${whenIn(m.schedule?.nextRunAt, m.schedule?.timezone)}</td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            <//>`,
    )}
  </div>`;
}
