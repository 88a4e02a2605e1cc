import type { AeqClient } from '../../../../packages/client/src/client.js';
import type { ListedTask, ListedTasks, TaskStatus } from '../../../../packages/client/src/types.js';
import { ALL_TASK_TYPES } from '../../../../src/domain/engine-catalog.js';
import { useState } from 'preact/hooks';
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
const PAGE = 50;

/** `datetime-local` text (the reader's zone) as an RFC 3339 time, or undefined. */
function isoOf(local: string | null): string | undefined {
  if (!local) return undefined;
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** The task explorer: the account's tasks, newest first, by engine, status and time, a page at a time. */
export function TasksView({
  client,
  route,
  onKeyRefused,
}: {
  client: AeqClient;
  route: Route;
  onKeyRefused: () => void;
}) {
  const q = route.query;
  const engine = q.get('engine') ?? '';
  const status = q.get('status') ?? '';
  const window = q.get('window') ?? '24h';
  const from = q.get('from') ?? '';
  const to = q.get('to') ?? '';
  const span = WINDOWS.find((w) => w[0] === window)?.[2] ?? 24 * 3600_000;
  const [more, setMore] = useState<{ key: string; tasks: ListedTask[]; cursor: string | null; error: string | null }>();

  const query = () => ({
    since:
      window === 'custom'
        ? (isoOf(from) ?? new Date(Date.now() - 24 * 3600_000).toISOString())
        : new Date(Date.now() - span).toISOString(),
    ...(window === 'custom' && isoOf(to) ? { until: isoOf(to) } : {}),
    ...(engine ? { engine } : {}),
    ...(status ? { status: status as TaskStatus } : {}),
    order: 'desc' as const,
    limit: PAGE,
    includeRequest: true,
  });
  const key = `${engine}|${status}|${window}|${from}|${to}`;
  const first = useLoad<ListedTasks>(() => client.tasks(query()), key, { onKeyRefused });
  const extra = more?.key === key ? more : undefined;
  const tasks = [...(first.data?.tasks ?? []), ...(extra?.tasks ?? [])];
  const cursor = extra ? extra.cursor : (first.data?.nextCursor ?? null);

  const set = (name: string, value: string) => {
    const next: Record<string, string> = { engine, status, window, from, to };
    next[name] = value;
    if (next.window !== 'custom') {
      next.from = '';
      next.to = '';
    }
    navigate(href('tasks', next));
  };
  const loadMore = async () => {
    if (!cursor) return;
    try {
      const page = await client.tasks({ ...query(), cursor });
      setMore({
        key,
        tasks: [...(extra?.tasks ?? []), ...(page.tasks ?? [])],
        cursor: page.nextCursor ?? null,
        error: null,
      });
    } catch (e) {
      setMore({ key, tasks: extra?.tasks ?? [], cursor, error: describeError(e) });
    }
  };

  return html`<div>
    <h1>Tasks</h1>
    <form class="filters card" onSubmit=${(e: Event) => e.preventDefault()} aria-label="Filter tasks">
      <${Choice} label="Engine" name="engine" value=${engine} onChange=${(v: string) => set('engine', v)}
        options=${[['', 'All engines'], ...ALL_TASK_TYPES.map((t) => [t, t])]} />
      <${Choice} label="Status" name="status" value=${status} onChange=${(v: string) => set('status', v)}
        options=${[['', 'Any status'], ...STATUSES.map((s) => [s, s])]} />
      <${Choice} label="Created" name="window" value=${window} onChange=${(v: string) => set('window', v)}
        options=${[...WINDOWS.map(([v, label]) => [v, label]), ['custom', 'between…']]} />
      ${
        window === 'custom'
          ? html`<label>From <input type="datetime-local" name="from" value=${from}
                onChange=${(e: Event) => set('from', (e.target as HTMLInputElement).value)} /></label>
              <label>To <input type="datetime-local" name="to" value=${to}
                onChange=${(e: Event) => set('to', (e.target as HTMLInputElement).value)} /></label>`
          : null
      }
      <button type="button" class="secondary" onClick=${() => first.reload()}>Refresh</button>
    </form>
    <${ErrorBox} error=${first.error} />
    ${
      first.data === null && first.loading
        ? html`<${Loading} what="tasks" />`
        : html`<${TableWrap} label="Tasks">
            <table class="tasks-table">
              <caption class="muted">
                ${tasks.length} ${tasks.length === 1 ? 'task' : 'tasks'}${cursor ? ' shown, more below' : ''},
                newest first
              </caption>
              <${Head} cols=${['Created', 'Engine', 'Status', 'Asked']} />
              <tbody>
                ${tasks.map(
                  (t) => html`<tr>
                    <td class="nowrap">${when(t.task?.createdAt)}</td>
                    <td>${t.task?.taskType}</td>
                    <td><${StatusBadge} status=${t.task?.status} /></td>
                    <td><a href=${href(`tasks/${t.task?.id}`)}>${askedOf(t, 90)}</a></td>
                  </tr>`,
                )}
              </tbody>
            </table>
          <//>
          ${tasks.length === 0 ? html`<p class="muted">No task matches these filters.</p>` : null}
          <${ErrorBox} error=${extra?.error ?? null} />
          ${cursor ? html`<button type="button" class="secondary" onClick=${loadMore}>Show more</button>` : null}`
    }
  </div>`;
}
