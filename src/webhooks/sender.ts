import { Agent, type Dispatcher } from 'undici';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../domain/clock.js';
import { RefusedTargetError, assertPublicHost, guardedLookup, isRefusedOrUnresolved } from '../net/address-guard.js';
import type { Metrics } from '../ops/metrics.js';
import type { DeliveryOutcome, DeliveryShare, DueDelivery, Outbox } from '../store/ports.js';
import type { AccountSecrets } from './account-secrets.js';
import { SharedDeadlines } from './deadlines.js';
import { afterFailure, attemptOfDelivery, attemptsSpent } from './retry-schedule.js';
import { webhookHeaders, type WebhookSecret } from './signing.js';
import { coerceError } from '../domain/coerce-error.js';

/** Free slots to gather (at most a quarter of the concurrency) before claiming again while deliveries are in flight. */
const CLAIM_BUNCH = 16;

/**
 * How long a delivery is leased to the sender that claimed it (a lease as a task's: held until a time, fenced by a
 * token): one attempt lasts at most the request timeout (and 100 ms, see deadlines.ts) plus two store writes, so twice
 * the timeout and a second covers stalls. A sender that died mid-attempt leaves its delivery due again after this
 * (about a minute by default).
 */
function deliveryLeaseMs(timeoutMs: number): number {
  return 2 * timeoutMs + 1_000;
}

export interface WebhookSenderOptions {
  retryBaseMs: number;
  timeoutMs: number;
  allowPrivate: boolean;
  concurrency: number;
  pollMs: number;
  /** Each account's signing secrets (account-secrets.ts); without them deliveries go unsigned (the bench baseline). */
  signing?: Pick<AccountSecrets, 'signingKeys'>;
  /**
   * The worker process the claims are recorded for (its registration's id), so that its death releases them at once;
   * without one, a claimed delivery is freed only when its lease runs out (`deliveryLeaseMs`).
   */
  holder?: () => string;
}

/**
 * Delivers webhook outbox rows. A delivery is claimed for a bounded time, each attempt is recorded
 * before it is sent (so an attempt number is never made twice), and the outcome schedules the
 * next attempt or ends the delivery (retry-schedule.ts). Pending rows survive restarts because they live in the store.
 * Its timers (the poll, the earliest retry, wake-ups) only call `runOnce()`, which tests call directly
 * after moving their clock to the next retry.
 */
export class WebhookSender {
  private readonly dispatcher: Dispatcher;
  private timer: NodeJS.Timeout | null = null;
  /** Fires when the earliest scheduled retry becomes due, so retries keep their 2-4-8-16 spacing. */
  private retryTimer: NodeJS.Timeout | null = null;
  private retryTimerAt = Infinity;
  /** The last claim round asked for, so stop() and the next round can wait for it. */
  private tick: Promise<number> | null = null;
  private ticking = false;
  private again = false;
  private stopped = false;
  private stopping: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  /** Deliveries in flight per account: the claim keeps each account within its share of the slots. */
  private readonly held = new Map<string, number>();
  private readonly deadlines: SharedDeadlines;

  constructor(
    private readonly outbox: Outbox,
    private readonly opts: WebhookSenderOptions,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
  ) {
    this.dispatcher = new Agent({ connect: opts.allowPrivate ? {} : { lookup: guardedLookup }, connections: 128 });
    this.deadlines = new SharedDeadlines(opts.timeoutMs);
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), this.opts.pollMs);
    this.wake();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    void this.runOnce();
  }

  /** Wakes the sender at `at` (the earliest pending retry wins); the poll still covers other processes' rows. */
  private wakeAt(at: number): void {
    if (this.stopped || at >= this.retryTimerAt) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimerAt = at;
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = null;
        this.retryTimerAt = Infinity;
        // Timers may fire a millisecond early by the wall clock; a claim then would find nothing due.
        if (this.clock.now() < at) this.wakeAt(at);
        else this.wake();
      },
      Math.max(0, at - this.clock.now()),
    );
    this.retryTimer.unref();
  }

  /**
   * One step: claims every due delivery there is room for and starts sending them; returns how many
   * it started (`idle()` waits for their outcomes). A round already under way finishes first, so
   * after `await runOnce(); await idle()` every delivery due at the clock's time has been attempted.
   */
  runOnce(): Promise<number> {
    const previous = this.tick;
    const round = (previous ? previous.then(() => this.claimRound()) : this.claimRound()).finally(() => {
      if (this.tick === round) this.tick = null;
    });
    this.tick = round;
    return round;
  }

  private async claimRound(): Promise<number> {
    this.ticking = true;
    let sent = 0;
    try {
      do {
        this.again = false;
        const room = this.opts.concurrency - this.inFlight.size;
        // While deliveries are in flight, claim in bunches rather than one row per finished
        // delivery: each finish wakes the sender again, so nothing due waits for long.
        if (room <= 0 || (this.inFlight.size > 0 && room < Math.min(CLAIM_BUNCH, Math.ceil(this.opts.concurrency / 4))))
          break;
        const due = await this.outbox.claimDue({
          now: this.clock.now(),
          limit: room,
          leaseMs: deliveryLeaseMs(this.opts.timeoutMs),
          holder: this.opts.holder?.() ?? null,
          share: this.share(),
        });
        const keys = await this.keysOf(due);
        for (const d of due) {
          this.held.set(d.accountId, (this.held.get(d.accountId) ?? 0) + 1);
          const p = this.deliver(d, keys.get(d.accountId) ?? (this.opts.signing ? MISSING_KEYS : []))
            .catch((e: unknown) =>
              this.log.error(
                { err: e, taskId: d.taskId },
                'webhook delivery crashed; it is retried when its claim runs out',
              ),
            )
            .finally(() => {
              this.inFlight.delete(p);
              const n = (this.held.get(d.accountId) ?? 1) - 1;
              if (n > 0) this.held.set(d.accountId, n);
              else this.held.delete(d.accountId);
              this.wake();
            });
          this.inFlight.add(p);
        }
        sent += due.length;
        if (due.length === room) this.again = true;
      } while (this.again && !this.stopped);
    } catch (e) {
      this.log.error({ err: e }, 'webhook claim failed');
    } finally {
      this.ticking = false;
    }
    return sent;
  }

  /**
   * Each account's share of the slots: while other accounts have deliveries due, a quarter of them; alone, all but a
   * quarter, which stays free for the others. So receivers that accept and never answer hold at most that many slots
   * for the request timeout each, and another account's delivery still finds a free one.
   */
  private share(): DeliveryShare {
    const shared = Math.max(1, Math.ceil(this.opts.concurrency / 4));
    return { held: this.held, shared, alone: Math.max(shared, this.opts.concurrency - shared) };
  }

  /** The signing keys of the claimed deliveries' accounts, in one read; an error stands for every one of them. */
  private async keysOf(due: readonly DueDelivery[]): Promise<Map<string, WebhookSecret[] | Error>> {
    const signing = this.opts.signing;
    if (!signing || due.length === 0) return new Map();
    try {
      return await signing.signingKeys(due.map((d) => d.accountId));
    } catch (e) {
      this.log.error({ err: e }, 'reading webhook signing secrets failed; the deliveries are retried');
      const err = coerceError(e);
      return new Map(due.map((d) => [d.accountId, err]));
    }
  }

  /** Waits for attempts in flight (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async deliver(d: DueDelivery, keys: WebhookSecret[] | Error): Promise<void> {
    const attempt = d.attempts + 1;
    const ofDelivery = attemptOfDelivery(attempt, d.attemptsBase);
    // Fields on the lines themselves rather than a child logger: pino builds a child (with its
    // redaction) eagerly, a cost paid per delivery even when the level drops the lines.
    const about = { taskId: d.taskId, webhookAttempt: ofDelivery, redelivery: d.redelivery };
    if (attemptsSpent(ofDelivery)) {
      // The fifth attempt was started by a sender that died before recording its outcome.
      await this.outbox.finishAttempt({
        taskId: d.taskId,
        leaseToken: d.leaseToken,
        attempt,
        outcome: { kind: 'abandoned', error: 'sender stopped during the last attempt', httpStatus: null },
        now: this.clock.now(),
      });
      return;
    }
    const started = await this.outbox.startAttempt({
      taskId: d.taskId,
      leaseToken: d.leaseToken,
      attempt,
      now: this.clock.now(),
      delivery: d.redelivery,
    });
    if (!started) return;
    let outcome: DeliveryOutcome;
    if (keys instanceof Error) {
      // Never unsigned when the account has secrets: the delivery waits for them (a store error, a new sealing key).
      outcome = this.failure(
        ofDelivery,
        "SIGNING_SECRET_UNAVAILABLE: the account's signing secret could not be read",
        null,
      );
    } else
      try {
        const status = await this.post(d, keys);
        if (status >= 200 && status < 300) outcome = { kind: 'delivered', httpStatus: status };
        else outcome = this.failure(ofDelivery, `HTTP ${status}`, status);
      } catch (e) {
        // A target refused as private and a name that does not resolve are recorded alike, so the delivery log does
        // not tell a tenant whether a private host name exists (the operator's log keeps which it was); both are
        // retried on the usual schedule (retry-schedule.ts).
        if (isRefusedOrUnresolved(e)) {
          this.log.warn({ ...about, reason: describe(e) }, 'webhook target refused or unresolvable');
          outcome = this.failure(ofDelivery, `undeliverable: ${REFUSED_TARGET}`, null);
        } else outcome = this.failure(ofDelivery, describe(e), null);
      }
    this.metrics.webhookOutcomes.inc({ outcome: outcome.kind });
    if (outcome.kind === 'delivered') this.log.info({ ...about, httpStatus: outcome.httpStatus }, 'webhook delivered');
    else
      this.log.warn(
        {
          ...about,
          error: outcome.error,
          next: outcome.kind === 'retry' ? new Date(outcome.at).toISOString() : 'abandoned',
        },
        'webhook attempt failed',
      );
    await this.outbox.finishAttempt({
      taskId: d.taskId,
      leaseToken: d.leaseToken,
      attempt,
      outcome,
      now: this.clock.now(),
    });
    if (outcome.kind === 'retry') this.wakeAt(outcome.at);
  }

  private failure(ofDelivery: number, error: string, httpStatus: number | null): DeliveryOutcome {
    return afterFailure(ofDelivery, this.clock.now(), this.opts.retryBaseMs, error, httpStatus);
  }

  private async post(d: DueDelivery, keys: readonly WebhookSecret[]): Promise<number> {
    const u = new URL(d.url);
    if (!this.opts.allowPrivate) assertPublicHost(u.hostname);
    const res = await this.dispatcher.request({
      origin: u.origin,
      path: u.pathname + u.search,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'aeq-webhook/1',
        ...webhookHeaders(keys, d.taskId, d.redelivery, d.payload, this.clock.now()),
      },
      body: d.payload,
      signal: this.deadlines.forAttempt(),
    });
    await res.body.dump();
    return res.statusCode;
  }

  /** Idempotent: a second call (the app's shutdown after a test's own) waits for the first. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    // A claim round may still start deliveries: let it, then wait for them.
    await this.tick;
    await this.idle();
    await this.dispatcher.close();
  }
}

/** A claimed delivery whose account's keys were not read (never sent unsigned). */
const MISSING_KEYS = new Error('no signing keys read for the account');

/**
 * What a delivery log says of a target that is private or does not resolve: one code and sentence for both, the
 * page readers' (RefusedTargetError).
 */
const REFUSED_TARGET = `PRIVATE_ADDRESS: ${new RefusedTargetError(null).message}`;

function describe(e: unknown): string {
  if (e instanceof Error) {
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout';
    const code = (e as { code?: string }).code;
    return code ? `${code}: ${e.message}` : e.message;
  }
  return String(e);
}
