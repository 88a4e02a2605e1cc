import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { AeqClient } from '../../../../packages/client/src/client.js';
import type { MonitorRunResult } from '../../../../src/domain/monitor.js';
import type {
  Monitor,
  MonitorMetrics,
  MonitorRun,
  MonitorRuns,
  MonitorDiscovered,
  MonitorSignals,
} from '../../../../packages/client/src/types.js';
import { describeError } from '../api.js';
import { Choice, ErrorBox, Head, Loading, Progress, Section, TableWrap } from '../components/bits.js';
import { Evidence } from '../components/evidence.js';
import { type MentionSpan, Highlighted } from '../components/highlighted.js';
import { LineChart } from '../components/line-chart.js';
import { day, linkHost, percent, when, whenIn } from '../format.js';
import { html } from '../html.js';
import { useLoad } from '../poll.js';
import { href, navigate, type Route } from '../router.js';
import { chartsOf, topDomainsOf } from './monitor-figures.js';
import { DiscoveredNames } from './monitor-discovered.js';
import { Signals } from './monitor-signals.js';

/** One answer of a run, as `include=results` gives it: the saved result and where it names the tracked brands. */
interface RunResult extends MonitorRunResult {
  mentions?: MentionSpan[];
  position?: number | null;
}

/**
 * A monitor: its definition, the mention rate and share of voice of each engine over its runs, the domains the
 * engines cite, the latest answers per prompt with the brands marked, and its runs with live progress.
 */
export function MonitorView(p: { client: AeqClient; id: string; route: Route; onKeyRefused: () => void }) {
  const { client, id, onKeyRefused } = p;
  const country = p.route.query.get('country');
  const [actionError, setActionError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [startedId, setStartedId] = useState<string | null>(null);
  const monitor = useLoad(() => client.monitor(id), id, { onKeyRefused });
  const runs = useLoad<MonitorRuns>(() => client.monitorRuns(id, { limit: 30 }), id, {
    // Every 3 s while a run is going on; every 30 s otherwise, so that the next run shows up when it starts.
    everyMs: (d) => ((d.runs ?? []).some((r) => r.status !== 'completed') ? 3000 : 30_000),
    onKeyRefused,
  });
  const runList = runs.data?.runs ?? [];
  const completed = runList.filter((r) => r.status === 'completed');
  const latest = completed[0];
  // The figures at once (beside the runs, not after them), and again whenever another run has ended.
  const metrics = useLoad<MonitorMetrics>(() => client.monitorMetrics(id), id, { onKeyRefused });
  const signals = useLoad<MonitorSignals>(() => client.monitorSignals(id), id, { onKeyRefused });
  const discovered = useLoad<MonitorDiscovered>(() => client.monitorDiscovered(id), id, { onKeyRefused });
  const ended = useRef<number | null>(null);
  useEffect(() => {
    if (runs.data === null) return;
    if (ended.current !== null && ended.current !== completed.length) {
      metrics.reload();
      signals.reload();
      discovered.reload();
    }
    ended.current = completed.length;
  }, [runs.data, completed.length]);

  // The newest run with its answers, read beside the runs: it is the latest ended run unless one is going on.
  const newest = useLoad<MonitorRuns>(() => client.monitorRuns(id, { limit: 1, include: 'results' }), id, {
    onKeyRefused,
  });
  const m = monitor.data?.monitor;
  if (!m) return monitor.error ? html`<${ErrorBox} error=${monitor.error} />` : html`<${Loading} what="the monitor" />`;

  const setStatus = async (status: 'active' | 'paused') => {
    try {
      setActionError(null);
      await client.updateMonitor(id, { status });
      monitor.reload();
    } catch (e) {
      setActionError(describeError(e));
    }
  };
  // Tracking a name found in the answers: one more competitor from the next run; the lists are read again.
  const trackName = async (name: string) => {
    try {
      setActionError(null);
      await client.addMonitorCompetitor(id, { name });
      monitor.reload();
      discovered.reload();
    } catch (e) {
      setActionError(describeError(e));
    }
  };
  const chooseCountry = (c: string) => navigate(href(`monitors/${id}`, { country: c }));
  // Run now: the run is made at once and shows in the runs below, whose list is read every 3 s while it goes on.
  const open = runList.some((r) => r.status !== 'completed');
  const runNow = async () => {
    try {
      setActionError(null);
      setStarting(true);
      const started = await client.runMonitorNow(id);
      setStartedId(started.run?.id ?? null);
      runs.reload();
    } catch (e) {
      setActionError(describeError(e));
    } finally {
      setStarting(false);
    }
  };

  return html`<article class="monitor" data-monitor-id=${m.id}>
    <p class="crumbs"><a href=${href('monitors')}>Monitors</a> / ${m.name}</p>
    <h1>${m.name}</h1>
    <${MonitorFacts} m=${m} />
    <div class="toolbar">
      <${Choice} label="Country" name="country" value=${country ?? ''} onChange=${chooseCountry}
        options=${[['', 'All countries'], ...(m.countries ?? []).map((c) => [c, c])]} />
      <button type="button" class="run-now" onClick=${runNow} disabled=${starting || open}
        title=${open ? 'A run is going on: see its progress below' : `Ask its ${m.tasksPerRun} tasks now`}>
        Run now
      </button>
      ${
        m.status === 'active'
          ? html`<button type="button" class="secondary" onClick=${() => setStatus('paused')}>Pause</button>`
          : html`<button type="button" onClick=${() => setStatus('active')}>Resume</button>`
      }
    </div>
    <${ErrorBox} error=${actionError ?? metrics.error ?? runs.error} />
    ${
      !metrics.data
        ? html`<${Loading} what="the figures" />`
        : html`<${Charts} points=${metrics.data.series ?? []} country=${country} brand=${m.brand?.name ?? ''} />`
    }
    ${signals.data ? html`<${Signals} signals=${signals.data.signals ?? []} country=${country} />` : null}
    ${discovered.data ? html`<${DiscoveredNames} found=${discovered.data} onTrack=${trackName} />` : null}
    ${
      latest
        ? html`<${LatestAnswers} client=${client} monitorId=${id} runs=${runList} run=${latest} country=${country}
            newest=${newest.data === null && !newest.error ? undefined : (newest.data?.runs?.[0] ?? null)} />`
        : null
    }
    <${RunsTable} runs=${runList} loading=${runs.data === null} startedId=${startedId} />
  </article>`;
}

function MonitorFacts({ m }: { m: Monitor }) {
  const names = (b: { name?: string; aliases?: string[] } | undefined) =>
    b ? [b.name, ...(b.aliases ?? [])].filter(Boolean).join(' / ') : '—';
  const competitors = m.competitors ?? [];
  return html`<dl class="facts">
    <div>
      <dt>Brand</dt>
      <dd>
        <mark class="brand">${names(m.brand)}</mark> <span class="muted">${(m.brand?.domains ?? []).join(', ')}</span>
      </dd>
    </div>
    <div>
      <dt>Competitors</dt>
      <dd>${competitors.length ? competitors.map((c) => html`<mark class="competitor">${names(c)}</mark> `) : '—'}</dd>
    </div>
    <div><dt>Engines</dt><dd>${(m.engines ?? []).join(', ')}</dd></div>
    <div><dt>Countries</dt><dd>${(m.countries ?? []).join(', ')}</dd></div>
    <div>
      <dt>Prompts</dt>
      <dd>
        ${m.prompts?.length}${(m.samples ?? 1) > 1 ? `, each asked ${m.samples} times` : ''}
        (${m.tasksPerRun} tasks a run)
      </dd>
    </div>
    <div><dt>Schedule</dt><dd><code>${m.schedule?.cron}</code> ${m.schedule?.timezone}</dd></div>
    <div><dt>Status</dt><dd><span class=${`badge monitor-${m.status}`}>${m.status}</span></dd></div>
    <div><dt>Next run</dt><dd>${whenIn(m.schedule?.nextRunAt, m.schedule?.timezone)}</dd></div>
  </dl>`;
}

function Charts({
  points,
  country,
  brand,
}: {
  points: NonNullable<MonitorMetrics['series']>;
  country: string | null;
  brand: string;
}) {
  const charts = useMemo(() => chartsOf(points, country), [points, country]);
  const domains = useMemo(() => topDomainsOf(points, country), [points, country]);
  if (charts.xs.length === 0)
    return html`<p class="muted card charts-empty">
      ${
        country && points.length > 0
          ? `No figures in ${country}: no run has ended there yet (or no engine of the monitor could serve it).`
          : 'No run has ended yet: the charts appear after the first.'
      }
    </p>`;
  const where = country ?? 'all countries';
  return html`${
    charts.mentioning === 0
      ? html`<p class="muted card charts-note">
          ${brand} is not named in any of the ${charts.answers} answers of these runs (${where}): every line is at
          0%. The latest answers below show what the engines named instead.
        </p>`
      : null
  }<div class="charts">
    <section class="card chart-card" aria-label="Mention rate">
      <${LineChart} title=${`Mention rate of ${brand}, per engine (${where})`} xs=${charts.xs}
        series=${charts.mentionRate} />
    </section>
    <section class="card chart-card" aria-label="Share of voice">
      <${LineChart} title=${`Share of voice of ${brand}, per engine (${where})`} xs=${charts.xs}
        series=${charts.shareOfVoice} />
    </section>
    ${
      // Only engines that say whether they searched have a line; without any, the chart would be empty.
      charts.searchRate.some((s) => s.values.some((v) => v !== null))
        ? html`<section class="card chart-card" aria-label="Search rate">
            <${LineChart} title=${`Answers that searched the web, per engine (${where})`} xs=${charts.xs}
              series=${charts.searchRate.filter((s) => s.values.some((v) => v !== null))} />
          </section>`
        : null
    }
  </div>
  <${Section} title="Top cited domains" id="domains-title">
    <${TableWrap} label="Top cited domains">
      <table class="domains">
        <caption class="muted">
          Over ${charts.xs.length} runs (${where}); each run's ten most cited domains per engine and country, summed
        </caption>
        <${Head} cols=${['Domain', 'Citations', 'Share', 'Cited in', 'Read in', 'Owner']} />
        <tbody>
          ${domains.map(
            (d) => html`<tr class=${d.owner === brand ? 'own' : ''}>
              <td>${d.domain}</td><td>${d.citations}</td><td>${percent(d.share, 1)}</td>
              <td>${d.citationRate === null ? '—' : percent(d.citationRate, 1)}</td>
              <td title="answers that read it, cited or not, of those whose engine lists what it read">${
                d.retrievalRate === null ? '—' : percent(d.retrievalRate, 1)
              }</td>
              <td>${d.owner ?? '—'}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    <//>
  <//>`;
}

/** The answers of the latest ended run, prompt by prompt; a prompt's answers are drawn only once it is opened. */
function LatestAnswers(p: {
  client: AeqClient;
  monitorId: string;
  runs: MonitorRun[];
  run: MonitorRun;
  country: string | null;
  /** The newest run with its answers (undefined while it is being read, null when it could not be). */
  newest: MonitorRun | null | undefined;
}) {
  const index = p.runs.indexOf(p.run);
  // The run by its id: the newest run read beside the list when it is this one, else the page that ends with it (its
  // saved answers are most of the bytes: one run's only). A run begun since the list was read moves it one place on:
  // the next read of the list gives the new place.
  const have = p.newest?.id === p.run.id ? p.newest : null;
  const waiting = p.newest === undefined;
  const loaded = useLoad(
    async () => {
      if (have || waiting) return have;
      const page = await p.client.monitorRuns(p.monitorId, { limit: index + 1, include: 'results' });
      return page.runs?.find((r) => r.id === p.run.id) ?? null;
    },
    `${p.run.id}|${index}|${have ? 'have' : waiting ? 'wait' : 'read'}`,
  );
  const [open, setOpen] = useState<Set<string>>(new Set());
  const results = ((loaded.data?.results ?? []) as unknown as RunResult[]).filter(
    (r) => p.country === null || r.country === p.country,
  );
  const byPrompt = new Map<string, RunResult[]>();
  for (const r of results) byPrompt.set(r.prompt, [...(byPrompt.get(r.prompt) ?? []), r]);
  const toggle = (prompt: string) => {
    const next = new Set(open);
    if (next.has(prompt)) next.delete(prompt);
    else next.add(prompt);
    setOpen(next);
  };
  const title = `Latest answers (run of ${p.run.slotAt ? day(p.run.slotAt) : '?'})`;
  return html`<${Section} title=${title} id="answers-title">
    <${ErrorBox} error=${loaded.error} />
    ${loaded.data === null && !loaded.error ? html`<${Loading} what="the answers" />` : null}
    <ul class="prompts">
      ${[...byPrompt.entries()].map(([prompt, answers]) => {
        const mentioned = answers.filter((a) => (a.mentions ?? []).some((x) => x.role === 'brand')).length;
        const isOpen = open.has(prompt);
        return html`<li class="prompt">
          <button type="button" class="prompt-toggle" aria-expanded=${isOpen ? 'true' : 'false'}
            onClick=${() => toggle(prompt)}>
            <span>${prompt}</span>
            <span class="muted">brand in ${mentioned} of ${answers.length} answers</span>
          </button>
          ${
            isOpen
              ? html`<div class="prompt-answers">
                  ${answers.map((a) => html`<${RunAnswer} a=${a} client=${p.client} />`)}
                </div>`
              : null
          }
        </li>`;
      })}
    </ul>
  <//>`;
}

/** One answer: its text with the brands marked, what it cites, read and searched, and the evidence its task kept. */
function RunAnswer({ a, client }: { a: RunResult; client: AeqClient }) {
  const named = a.position ? `brand ${ordinal(a.position)} named` : 'brand not named';
  const hosts = [...new Set(a.sources.map(linkHost))];
  const read = [...new Set((a.retrieved ?? []).map(linkHost))];
  return html`<div class="run-answer">
    <h3>${a.engine}${a.country ? ` · ${a.country}` : ''}
      ${a.status === 'COMPLETED' ? html` <span class="badge">${named}</span>` : null}
      <a class="small" href=${href(`tasks/${a.taskId}`)}>task</a></h3>
    ${
      a.status === 'FAILED'
        ? html`<p class="error">${a.error}</p>`
        : html`<${Highlighted} text=${a.text} mentions=${a.mentions ?? []} />
          ${hosts.length ? html`<p class="muted small">Cites: ${hosts.join(', ')}</p>` : null}
          ${read.length ? html`<p class="muted small read">Read, not cited: ${read.join(', ')}</p>` : null}
          ${
            a.searchQueries?.length
              ? html`<p class="muted small searches">Searched: ${a.searchQueries.map((q) => `“${q}”`).join(', ')}</p>`
              : a.searchTriggered === false
                ? html`<p class="muted small searches">Answered without searching</p>`
                : null
          }`
    }
    <${Evidence} client=${client} taskId=${a.taskId} />
  </div>`;
}

const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

function RunsTable({ runs, loading, startedId }: { runs: MonitorRun[]; loading: boolean; startedId: string | null }) {
  return html`<${Section} title="Runs" id="runs-title">
    ${loading ? html`<${Loading} what="the runs" />` : null}
    ${!loading && runs.length === 0 ? html`<p class="muted">No run yet.</p>` : null}
    ${
      runs.length > 0
        ? html`<${TableWrap} label="Runs">
            <table class="runs">
              <${Head} cols=${['Run of', 'Status', 'Progress', 'Ended', 'Tasks']} />
              <tbody>
                ${runs.map((r) => {
                  const pr = (r.progress ?? {}) as { done?: number; total?: number; failed?: number };
                  // A scheduled run is of its slot; one started by hand says so (and the one just started, that).
                  const byHand = r.trigger === 'manual';
                  return html`<tr data-run-id=${r.id} data-status=${r.status} data-trigger=${r.trigger ?? 'schedule'}>
                    <td class="nowrap">${when(r.slotAt)}${
                      byHand
                        ? html` <span class="badge">${r.id === startedId ? 'started now' : 'by hand'}</span>`
                        : null
                    }</td>
                    <td>${r.status}</td>
                    <td><${Progress} done=${pr.done ?? 0} total=${pr.total ?? r.tasks ?? 0} failed=${pr.failed ?? 0}
                      label=${`Run of ${when(r.slotAt)}`} /></td>
                    <td class="nowrap">${when(r.completedAt)}</td>
                    <td>${r.batchId ? html`<a href=${href(`batches/${r.batchId}`)}>its batch</a>` : '—'}</td>
                  </tr>`;
                })}
              </tbody>
            </table>
          <//>`
        : null
    }
  <//>`;
}
