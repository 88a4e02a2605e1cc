import { useEffect, useState } from 'preact/hooks';
import type { AeqClient, TasksQuery } from '../../../../packages/client/src/client.js';
import type { ListedTask, ListedTasks, TaskStatus } from '../../../../packages/client/src/types.js';
import { ALL_TASK_TYPES } from '../../../../src/domain/engine-catalog.js';
import { describeError } from '../api.js';
import { Choice, ErrorBox, Head, Loading, StatusBadge, TableWrap } from '../components/bits.js';
import { askedOf, when } from '../format.js';
import { html } from '../html.js';
import { useLoad } from '../poll.js';
import { href, navigate, type Route } from '../router.js';

const STATUSES: TaskStatus[] = ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'];
/** Time windows of the filter; tasks are kept 24 hours, so none reaches further. */
const WINDOWS: Array<[string, string, number]> = [
  ['15m', 'last 15 minutes', 15 * 60_000],
  ['1h', 'last hour', 3600_000],
  ['6h', 'last 6 hours', 6 * 3600_000],
  ['24h', 'last 24 hours', 24 * 3600_000],
];
const DAY_MS = 24 * 3600_000;
const PAGE = 50;
const FILTERS = ['q', 'engine', 'status', 'window', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** `datetime-local` text (the reader's zone) as an RFC 3339 time, or undefined. */
function isoOf(local: string): string | undefined {
  if (!local) return undefined;
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** The listing's query for the filters, its time window read from the clock once (pages after it reuse it). */
function queryOf(f: Filters): TasksQuery {
  const span = WINDOWS.find((w) => w[0] === f.window)?.[2] ?? DAY_MS;
  const custom = f.window === 'custom';
  const until = custom ? isoOf(f.to) : undefined;
  return {
    since: (custom && isoOf(f.from)) || new Date(Date.now() - (custom ? DAY_MS : span)).toISOString(),
    ...(until ? { until } : {}),
    ...(f.q.trim() ? { q: f.q.trim() } : {}),
    ...(f.engine ? { engine: f.engine } : {}),
    ...(f.status ? { status: f.status as TaskStatus } : {}),
    order: 'desc',
    limit: PAGE,
    includeRequest: true,
  };
}

interface Listing {
  query: TasksQuery;
  tasks: ListedTask[];
  cursor: string | null;
}

/** The task explorer: the account's tasks, newest first, by asked text, engine, status and time, a page at a time. */
export function TasksView(p: { client: AeqClient; route: Route; onKeyRefused: () => void }) {
  const { client } = p;
  const applied = Object.fromEntries(FILTERS.map((k) => [k, p.route.query.get(k) ?? ''])) as Filters;
  if (!applied.window) applied.window = '24h';
  const appliedKey = FILTERS.map((k) => applied[k]).join('|');
  const [draft, setDraft] = useState<Filters>(applied);
  // Back and forward change the filters in the URL: the form shows them again.
  useEffect(() => setDraft(applied), [appliedKey]);
  const [refreshes, setRefreshes] = useState(0);
  const [moreError, setMoreError] = useState<string | null>(null);
  const key = `${appliedKey}|${refreshes}`;
  // The first page; "Show more" appends to it. A refresh or new filters start again from a new first page.
  const [listing, setListing] = useState<Listing & { key: string }>();
  const first = useLoad<Listing>(
    async () => {
      const query = queryOf(applied);
      const page: ListedTasks = await client.tasks(query);
      return { query, tasks: page.tasks ?? [], cursor: page.nextCursor ?? null };
    },
    key,
    { onKeyRefused: p.onKeyRefused },
  );
  const shown = listing?.key === key ? listing : first.data;
  const tasks = shown?.tasks ?? [];
  const cursor = shown?.cursor ?? null;

  const apply = (e: Event) => {
    e.preventDefault();
    const next = { ...draft };
    if (next.window !== 'custom') {
      next.from = '';
      next.to = '';
    }
    navigate(href('tasks', next));
  };
  const edit = (name: keyof Filters) => (value: string) => setDraft({ ...draft, [name]: value });
  const loadMore = async () => {
    if (!shown || !cursor) return;
    try {
      const page = await client.tasks({ ...shown.query, cursor });
      setMoreError(null);
      setListing({
        key,
        query: shown.query,
        tasks: [...shown.tasks, ...(page.tasks ?? [])],
        cursor: page.nextCursor ?? null,
      });
    } catch (e) {
      setMoreError(describeError(e));
    }
  };

  return html`<div>
    <h1>Tasks</h1>
    <form class="filters card" onSubmit=${apply} aria-label="Filter tasks">
      <label>Asked <input type="search" name="q" maxlength="200" placeholder="text in the prompt, query or URL"
        value=${draft.q} onInput=${(e: Event) => edit('q')((e.target as HTMLInputElement).value)} /></label>
      <${Choice} label="Engine" name="engine" value=${draft.engine} onChange=${edit('engine')}
        options=${[['', 'All engines'], ...ALL_TASK_TYPES.map((t) => [t, t])]} />
      <${Choice} label="Status" name="status" value=${draft.status} onChange=${edit('status')}
        options=${[['', 'Any status'], ...STATUSES.map((s) => [s, s])]} />
      <${Choice} label="Created" name="window" value=${draft.window} onChange=${edit('window')}
        options=${[...WINDOWS.map(([v, label]) => [v, label]), ['custom', 'between…']]} />
      ${
        draft.window === 'custom'
          ? html`<label>From <input type="datetime-local" name="from" value=${draft.from}
                onChange=${(e: Event) => edit('from')((e.target as HTMLInputElement).value)} /></label>
              <label>To <input type="datetime-local" name="to" value=${draft.to}
                onChange=${(e: Event) => edit('to')((e.target as HTMLInputElement).value)} /></label>`
          : null
      }
      <button type="submit">Apply</button>
      <button type="button" class="secondary" onClick=${() => setRefreshes((n) => n + 1)}>Refresh</button>
    </form>
    <${ErrorBox} error=${first.error} />
    ${
      shown === null || shown === undefined
        ? first.error
          ? null
          : html`<${Loading} what="tasks" />`
        : html`<${TableWrap} label="Tasks">
            <table class="tasks-table">
              <caption class="muted">
                ${tasks.length} ${tasks.length === 1 ? 'task' : 'tasks'}${cursor ? ' shown, more below' : ''},
                newest first
              </caption>
              <${Head} cols=${['Created', 'Engine', 'Country', 'Status', 'Asked']} />
              <tbody>
                ${tasks.map(
                  (t) => html`<tr>
                    <td class="nowrap">${when(t.task?.createdAt)}</td>
                    <td>${t.task?.taskType}</td>
                    <td class="task-country">${t.request?.country ?? '—'}</td>
                    <td><${StatusBadge} status=${t.task?.status} /></td>
                    <td><a href=${href(`tasks/${t.task?.id}`)}>${askedOf(t, 90)}</a></td>
                  </tr>`,
                )}
              </tbody>
            </table>
          <//>
          ${tasks.length === 0 ? html`<p class="muted">No task matches these filters.</p>` : null}
          <${ErrorBox} error=${moreError} />
          ${cursor ? html`<button type="button" class="secondary" onClick=${loadMore}>Show more</button>` : null}`
    }
  </div>`;
}
