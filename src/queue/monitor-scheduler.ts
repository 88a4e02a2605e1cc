import type { Logger } from 'pino';
import {
  aggregateFacts,
  type CompetitorBrand,
  discoverNames,
  type PromptAnswer,
  type PromptFacts,
  factsFor,
  savedMentions,
  trackBrands,
} from '../analysis/visibility/index.js';
import { systemClock, type Clock } from '../domain/clock.js';
import {
  dueSlot,
  nextSlot,
  type MonitorRecord,
  type MonitorRunRecord,
  type MonitorRunResult,
} from '../domain/monitor.js';
import type { SubmissionContext } from '../submission/envelope.js';
import type { Monitors } from '../store/ports.js';

/** A run's event for its monitor's webhook, as the store queues it with the run's end. */
type RunEvent = NonNullable<Parameters<Monitors['advanceRun']>[0]['event']>['webhook'];
import { newMonitorRun, type RunPorts, type RunSubmission, sampleOf, submitMonitorRun } from './monitor-runs.js';
import { PeriodicPass } from './periodic-pass.js';

/** How long a run's matching may hold the event loop before giving it back. */
const FACTS_SLICE_MS = 10;
/** Monitors, runs and old runs handled per pass; the next pass takes the rest. */
const PER_PASS = 20;
/** A run's event carries its strongest signals (lowest q), at most this many; `/signals` lists them all. */
const EVENT_SIGNALS = 50;

export interface MonitorSchedulerOptions {
  /** Task retention (a run's tasks are read within it). */
  retentionMs: number;
  /** How long a run's saved results and figures are kept. */
  runRetentionMs: number;
  /** How far apart the samples of one prompt are due. */
  sampleSpacingMs: number;
  /** Called when a run's signals were queued for its monitor's webhook (wakes the sender). */
  onWebhookQueued?: () => void;
}

/**
 * Runs monitors on their schedules. Each pass:
 * 1. takes the slot of every due monitor: its run row, unique per monitor and scheduled time, so a restart or two
 *    workers never run one slot twice; slots missed while the service was down collapse into the latest one; the
 *    run keeps the monitor's definition as it was then;
 * 2. gives each `starting` run its tasks, as one batch through the normal queue (idempotency keys per run and
 *    item, so a pass cut short and done again makes no task twice);
 * 3. ends each `running` run whose batch has finished (or that would outlive its tasks' retention): the answers
 *    are saved with the run, beyond the tasks' 24 hours, with the visibility figures per engine and country
 *    (analysis/visibility, docs/analysis.md §6);
 * 4. deletes runs past the monitor data retention.
 * Each step is tried on its own, so one that fails does not hold up the rest. The timer only calls `runOnce()`;
 * tests call it with a stepped clock.
 */
export class MonitorScheduler extends PeriodicPass<void> {
  constructor(
    private readonly store: RunPorts & { monitors: Monitors },
    private readonly submission: SubmissionContext,
    private readonly o: MonitorSchedulerOptions,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
  ) {
    super();
  }

  protected async pass(): Promise<void> {
    const now = this.clock.now();
    await this.each(
      'claim',
      () => this.store.monitors.due({ now, limit: PER_PASS }),
      (m) => this.claim(m, now),
    );
    await this.each(
      'submit',
      () => this.store.monitors.runsIn({ status: 'starting', limit: PER_PASS }),
      (run) => this.submit(run),
    );
    // A run still open an hour before its tasks' retention ends is ended with what it has.
    const staleBefore = now - Math.max(0, this.o.retentionMs - 3600_000);
    await this.each(
      'finish',
      () => this.store.monitors.runsToFinish({ staleBefore, limit: PER_PASS }),
      (run) => this.finish(run),
    );
    await this.each(
      'cleanup',
      async () => [now - this.o.runRetentionMs],
      async (before) => void (await this.store.monitors.deleteOldRuns({ before, limit: PER_PASS * 5 })),
    );
  }

  private async each<T>(what: string, items: () => Promise<T[]>, f: (x: T) => Promise<void>): Promise<void> {
    try {
      for (const x of await items())
        await f(x).catch((e: unknown) => this.log.error({ err: e }, `monitor ${what} failed`));
    } catch (e) {
      this.log.error({ err: e }, `monitor ${what} failed`);
    }
  }

  private async claim(m: MonitorRecord, now: number): Promise<void> {
    const slot = dueSlot(m.schedule, now);
    if (slot === null) return;
    const run = newMonitorRun(m, slot, now, 'schedule');
    if (await this.store.monitors.claimSlot({ read: m, run, nextRunAt: nextSlot(m.schedule, now) }))
      this.log.info({ monitorId: m.id, runId: run.id, slot: new Date(slot).toISOString() }, 'monitor run started');
  }

  /** The run's tasks as one batch (queue/monitor-runs.ts); also what a run started by hand goes through. */
  private async submit(run: MonitorRunRecord): Promise<void> {
    await submitMonitorRun(this.runSubmission(), run);
  }

  private runSubmission(): RunSubmission {
    return {
      store: this.store,
      submission: this.submission,
      retentionMs: this.o.retentionMs,
      sampleSpacingMs: this.o.sampleSpacingMs,
      now: () => this.clock.now(),
      log: this.log,
    };
  }

  /**
   * Saves the answers and the figures of a run whose batch has ended, or that is about to outlive its tasks (then
   * with the answers it has; its progress shows the rest as not done). The finished tasks are read in one query:
   * read one by one (400 lookups for a run of 50 prompts × 4 engines × 2 countries) the pass that ends a run took
   * 620 ms on PostgreSQL and 100 ms on SQLite, and a run of more than 500 tasks lost those past its 500th
   * (docs/benchmarks.md, "Monitors at scale").
   */
  private async finish(run: MonitorRunRecord): Promise<void> {
    const results: MonitorRunResult[] = [];
    for (const t of await this.store.monitors.runTasks({ batchId: run.batchId, accountId: run.accountId })) {
      if (t.status !== 'COMPLETED' && t.status !== 'FAILED') continue;
      const r = (t.result ?? {}) as StoredAnswer;
      results.push({
        taskId: t.id,
        prompt: String((t.payload as { prompt?: unknown }).prompt ?? ''),
        engine: t.taskType,
        country: t.country,
        sample: sampleOf(t.batchIndex, run.spec.samples),
        status: t.status,
        text: typeof r.text === 'string' ? r.text : '',
        sources: urlsOf(r.sources) ?? [],
        ...answerSignalsOf(r),
        error: t.error,
      });
    }
    // Each answer's facts once: they make the figures of its group, and are saved as where it names the brands (so
    // that reading a run computes nothing: 0.45 ms an answer, seconds for a page of large runs).
    const tracked = trackBrands(run.spec.brand, run.spec.competitors);
    // A prompt's key in the stored figures is its index in the run's prompts: stored once per run (in `spec`), not
    // once per engine and country.
    const promptKey = new Map(run.spec.prompts.map((p, i) => [p, String(i)]));
    const groups = new Map<string, { facts: PromptFacts[]; answers: PromptAnswer[]; failed: number }>();
    let sliceStart = performance.now();
    for (const r of results) {
      // A run's answers are matched on the event loop: it is given back every few milliseconds, so a large run
      // (800 answers of 9 KB: 0.3 s) never holds the API, the claims or the webhooks for longer than one answer.
      if (performance.now() - sliceStart > FACTS_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      const key = `${r.engine}/${r.country ?? '-'}`;
      const group = groups.get(key) ?? { facts: [], answers: [], failed: 0 };
      groups.set(key, group);
      if (r.status === 'FAILED') {
        group.failed++;
        r.mentions = [];
        r.position = null;
        continue;
      }
      const answer = {
        text: r.text,
        sources: r.sources.map((url) => ({ url })),
        searchTriggered: r.searchTriggered ?? null,
        retrievedSources: r.retrieved ? r.retrieved.map((url) => ({ url })) : null,
      };
      const facts = factsFor(answer, tracked);
      const prompt = promptKey.get(r.prompt) ?? r.prompt;
      group.facts.push({ prompt, facts });
      group.answers.push({ prompt, ...answer });
      Object.assign(r, savedMentions(facts));
    }
    const metrics: Record<string, unknown> = {};
    for (const [key, g] of groups) {
      // The intervals' bootstraps take up to some 200 ms for a group of 200 prompts and 21 brands: the loop is given
      // back between groups.
      metrics[key] = {
        ...aggregateFacts(tracked, g.facts, g.failed),
        discovered: discoveredOf(g.answers, [run.spec.brand, ...run.spec.competitors]),
      };
      await new Promise((resolve) => setImmediate(resolve));
    }
    const now = this.clock.now();
    const done = { status: 'completed' as const, results, metrics, completedAt: now };
    // The monitor's webhook as it is now: one removed during the run gets nothing.
    const monitor = await this.store.monitors.get({ id: run.monitorId, accountId: run.accountId });
    const webhook = monitor?.webhookUrl ? await this.signalsEvent(run, metrics, monitor.webhookUrl) : null;
    const event = webhook ? { webhook, now } : undefined;
    if (await this.store.monitors.advanceRun({ id: run.id, from: 'running', to: done, ...(event ? { event } : {}) })) {
      this.log.info({ runId: run.id, tasks: results.length, signals: event !== undefined }, 'monitor run completed');
      if (event) this.o.onWebhookQueued?.();
    }
  }

  /**
   * The signals this run raised first (docs/analysis.md §6.7), as the event its monitor's webhook receives, or null
   * when it raised none: the runs before it are the baselines, read as the signals route reads them.
   */
  private async signalsEvent(
    run: MonitorRunRecord,
    metrics: Record<string, unknown>,
    url: string,
  ): Promise<RunEvent | null> {
    // The signals' statistics (a t distribution's module tree, some 300 files) load when a run first needs them, not
    // at every worker's start.
    const { monitorSignals, promptTexts, SIGNAL_READ_RUNS } = await import('../analysis/visibility/signals.js');
    const before = await this.store.monitors.runMetrics({
      monitorId: run.monitorId,
      accountId: run.accountId,
      to: run.slotAt,
      latest: SIGNAL_READ_RUNS - 1,
    });
    const raised = monitorSignals([...before, { id: run.id, slotAt: run.slotAt, metrics }])
      .filter((s) => s.firstSeen.runId === run.id)
      .sort((a, b) => a.qValue - b.qValue)
      .slice(0, EVENT_SIGNALS);
    if (raised.length === 0) return null;
    const signals = promptTexts(raised, () => run.spec.prompts);
    return {
      url,
      accountId: run.accountId,
      payload: {
        type: 'monitor.signals',
        monitorId: run.monitorId,
        runId: run.id,
        slotAt: new Date(run.slotAt).toISOString(),
        signals,
      },
    };
  }
}

/**
 * The names and domains a group's answers name or cite that the monitor does not track (docs/analysis.md §6.8), as a
 * run keeps them: without the prompts that named each (`GET /v1/monitors/{id}/discovered` counts runs and engines).
 */
function discoveredOf(answers: PromptAnswer[], tracked: CompetitorBrand[]) {
  const d = discoverNames(answers, tracked);
  return { ...d, names: d.names.map(({ prompts: _p, ...n }) => n) };
}

/** A finished task's response as a run reads it: nothing in it is trusted to have a shape. */
interface StoredAnswer {
  text?: unknown;
  sources?: unknown;
  searchQueries?: unknown;
  searchTriggered?: unknown;
  retrievedSources?: unknown;
}

/** The `url` of each listed source, or null when the member is not a list (the engine could not tell). */
function urlsOf(list: unknown): string[] | null {
  if (!Array.isArray(list)) return null;
  return list
    .map((s: unknown) => (s && typeof s === 'object' ? (s as { url?: unknown }).url : undefined))
    .filter((u): u is string => typeof u === 'string');
}

/**
 * What a run keeps of an answer's signals (docs/contract.md#answer-signals): the searches, whether it searched and
 * the pages it read but did not cite, each only where the engine said (absent otherwise, as in runs saved before).
 */
function answerSignalsOf(r: StoredAnswer): Pick<MonitorRunResult, 'searchQueries' | 'searchTriggered' | 'retrieved'> {
  const queries = Array.isArray(r.searchQueries)
    ? r.searchQueries.filter((q): q is string => typeof q === 'string')
    : null;
  const retrieved = urlsOf(r.retrievedSources);
  return {
    ...(queries ? { searchQueries: queries } : {}),
    ...(typeof r.searchTriggered === 'boolean' ? { searchTriggered: r.searchTriggered } : {}),
    ...(retrieved ? { retrieved } : {}),
  };
}
