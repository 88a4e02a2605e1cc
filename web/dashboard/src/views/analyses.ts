import type { AeqClient } from '../../../../packages/client/src/client.js';
import type { ListedTasks } from '../../../../packages/client/src/types.js';
import { ErrorBox, Head, listBody, StatusBadge, TableWrap } from '../components/bits.js';
import { askedOf, when } from '../format.js';
import { html } from '../html.js';
import { useLoad } from '../poll.js';
import { href } from '../router.js';

const KINDS = [
  ['PROMPT_RESEARCH', 'Prompt research', 'Seed'],
  ['SOURCE_INFLUENCE', 'Source influence', 'Answer'],
] as const;

/** The account's analyses of the last 24 hours, each kind in its own list; a row opens its readable result. */
export function AnalysesView({ client, onKeyRefused }: { client: AeqClient; onKeyRefused: () => void }) {
  return html`<div>
    <h1>Analyses</h1>
    ${KINDS.map(
      ([engine, title, asked]) =>
        html`<${AnalysisList} client=${client} engine=${engine} title=${title} asked=${asked}
          onKeyRefused=${onKeyRefused} />`,
    )}
  </div>`;
}

function AnalysisList(p: {
  client: AeqClient;
  engine: string;
  title: string;
  asked: string;
  onKeyRefused: () => void;
}) {
  const since = new Date(Date.now() - 24 * 3600_000).toISOString();
  const list = useLoad<ListedTasks>(
    () => p.client.tasks({ since, engine: p.engine, order: 'desc', limit: 50, includeRequest: true }),
    p.engine,
    { onKeyRefused: p.onKeyRefused },
  );
  const tasks = list.data?.tasks ?? [];
  const id = `list-${p.engine.toLowerCase()}`;
  return html`<section class="card" aria-labelledby=${id} data-kind=${p.engine}>
    <h2 id=${id}>${p.title}</h2>
    <${ErrorBox} error=${list.error} />
    ${listBody(
      list,
      tasks.length,
      p.title.toLowerCase(),
      'None in the last 24 hours.',
      () =>
        html`<${TableWrap} label=${p.title}>
              <table>
                <${Head} cols=${['Created', 'Status', p.asked]} />
                <tbody>
                  ${tasks.map(
                    (t) => html`<tr>
                      <td class="nowrap">${when(t.task?.createdAt)}</td>
                      <td><${StatusBadge} status=${t.task?.status} /></td>
                      <td><a href=${href(`tasks/${t.task?.id}`)}>${askedOf(t)}</a></td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            <//>`,
    )}
  </section>`;
}
