import type { Logger } from 'pino';
import { leaseKind } from '../config/account-kind.js';
import type { EngineConfig, ServiceConfig } from '../config/engine-config.js';
import {
  UpstreamFailure,
  coolsDownExit,
  taskCodeFor,
  taskErrorString,
  isPermanent,
  type TaskErrorCode,
} from '../domain/engine-errors.js';
import { upstreamScope } from '../engines/upstream-scope.js';
import { slotHoldMs } from './exit-offer.js';
import { classifyAttemptError, type AttemptFailure } from './attempt-failure.js';
import {
  hostOfScope,
  serviceFailure,
  upstreamFailure,
  type ServiceFailureCode,
  type TaskFailure,
} from '../domain/task-failure.js';
import type { ClaimedTask, TaskPayload } from '../domain/task.js';
import { ENGINE_CATALOG } from '../domain/engine-catalog.js';
import type { EngineRegistry } from '../engines/registry.js';
import { clientResponse } from '../engines/response-shape.js';
import type { Pools } from '../pools/pools.js';
import type { TransportFactory } from '../transport/transport-factory.js';
import type { AttemptBrowser, BrowserPool } from '../transport/browser/browser-pool.js';
import { ParsePool } from '../engines/parse-pool/pool.js';
import type { Metrics } from '../ops/metrics.js';
import type { EngineResult } from '../engines/engine-result.js';
import { coerceError } from '../domain/coerce-error.js';
import {
  captureFor,
  collectEvidence,
  evidenceSecrets,
  isPooledPage,
  keepsArtifacts,
  type EvidenceItem,
} from './attempt-evidence.js';

export type AttemptOutcome =
  | {
      kind: 'completed';
      response: Record<string, unknown>;
      credits?: number;
      /** The artefacts to keep, when the task asked for them (attempt-evidence.ts); stored before the finish. */
      evidence?: EvidenceItem[];
    }
  /** `retryable` false: no further attempt can help (bad payload, legitimate absence). */
  | {
      kind: 'failed';
      code: TaskErrorCode;
      error: string;
      retryable: boolean;
      /** Why, for the client (src/domain/task-failure.ts): the contract's `error` string stays fixed. */
      failure: TaskFailure;
      /** The upstream's Retry-After, capped at retryMaxMs: the next attempt waits at least this long. */
      retryAfterMs?: number;
    };

/**
 * Runs one attempt of a claimed task: takes a slot of an exit address (and of an account if the engine needs
 * one), calls the adapter under a timeout, and turns every failure into a task-level code.
 */
export class AttemptRunner {
  constructor(
    private readonly config: ServiceConfig,
    private readonly registry: EngineRegistry,
    private readonly pools: Pools,
    private readonly transports: TransportFactory,
    private readonly metrics: Metrics,
    /** Worker processes only; engines configured with `transport: "browser"` draw their pages from it. */
    private readonly browsers: BrowserPool | null = null,
    /** Where adapters' parsing runs (worker threads; inline when none is given). */
    private readonly parser: ParsePool = new ParsePool({ threads: 0 }),
  ) {}

  async run(task: ClaimedTask, log: Logger, drain: AbortSignal): Promise<AttemptOutcome> {
    const engine = this.config.engines[task.taskType];
    const adapter = this.registry.get(task.taskType);
    const attempts = task.attempts;
    if (!adapter)
      return this.fail(task, 'ENGINE_FAILED', 'INTERNAL_ERROR', log, `aeq has no adapter for ${task.taskType}.`);
    // Submissions to such an engine are refused (submission/engine-check.ts); a task queued before the
    // configuration changed still ends here, at once and without a retry.
    if (engine.mode === 'off' || engine.unavailable)
      return this.fail(
        task,
        'ENGINE_FAILED',
        'ENGINE_UNAVAILABLE',
        log,
        `${task.taskType} cannot serve on this service: ${engine.unavailable ?? 'its mode is off'}.`,
      );
    const payload = (task.payload ?? {}) as TaskPayload;
    const country = task.country ?? ENGINE_CATALOG[task.taskType].defaultCountry;
    const waitMs = this.config.scheduler.poolWaitMs;

    // A slot outlives the attempt only if its worker dies; then it expires on its own.
    const holdMs = slotHoldMs(engine, this.config.scheduler);
    // Rests are per upstream: an address Google refused still serves Bing.
    const scope = upstreamScope(task.taskType, payload, engine);
    const upstreamHost = attemptHost(engine, scope);
    // The exit address the claim leased, if the pool still gives it; else one leased now.
    const leased = task.exitLease;
    const exit =
      (leased ? this.pools.exits.adopt(leased.resourceId, leased.slotToken, country, scope) : null) ??
      (await this.pools.exits.acquire(country, waitMs, drain, { holdMs, scope }));
    if (!exit)
      return this.fail(
        task,
        'NO_IP_AVAILABLE',
        'NO_IP_AVAILABLE',
        log,
        `No exit address for ${country ?? 'any country'} became free within ${waitMs} ms.`,
        true,
      );
    let account = null;
    // Only an account of the kind the surface uses (account-kind.ts): an API key never becomes the app's session
    // cookie. `api` mode leases none for the API (the provider key serves), but the app surface needs a session.
    const kind = leaseKind(task.taskType, engine, payload.surface);
    if (kind) {
      account = await this.pools.accounts.acquire(country ?? 'US', waitMs, drain, {
        filter: (r) => r.value.engine === task.taskType && r.value.kind === kind,
        holdMs,
        scope,
      });
      if (!account) {
        exit.release();
        return this.fail(
          task,
          'NO_ACCOUNT_AVAILABLE',
          'NO_ACCOUNT_AVAILABLE',
          log,
          `No ${task.taskType} ${kind} account for ${country ?? 'US'} became free within ${waitMs} ms.`,
          true,
        );
      }
    }
    // One controller per attempt, its timer cleared at the end: AbortSignal.timeout and AbortSignal.any kept a timer
    // and a listener per attempt alive for the whole timeout (thousands at once at full speed).
    const attempt = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, engine.timeoutMs);
    timer.unref();
    const onDrain = () => attempt.abort(drain.reason);
    if (drain.aborted) onDrain();
    else drain.addEventListener('abort', onDrain, { once: true });
    const signal = attempt.signal;
    const started = performance.now();
    let release: 'ok' | 'cooldown' | 'unused' = 'ok';
    // A refusal's Retry-After: the exit address and account rest at least this long (capped like a retry).
    let restAtLeastMs = 0;
    let browser: AttemptBrowser | null = null;
    const keeps = keepsArtifacts(task.taskType, payload);
    const secrets = keeps
      ? evidenceSecrets(engine, account?.resource.value.secret, proxySecrets(exit.resource.value))
      : [];
    try {
      const http = this.transports.forExit(exit.resource.value, task.taskType);
      const attemptCountry = country ?? exit.resource.country;
      // The browser engines, and a task asking for an engine's app surface (docs/contract.md#surfaces).
      if ((engine.transport === 'browser' || payload.surface === 'app') && this.browsers) {
        const capture = keeps ? captureFor(isPooledPage(engine, kind), secrets) : undefined;
        browser = this.browsers.forAttempt({
          exit: exit.resource.value,
          country: attemptCountry,
          signal,
          ...(capture ? { capture } : {}),
        });
      }
      const work = adapter.run({
        taskId: task.id,
        tenant: task.accountId,
        taskType: task.taskType,
        payload,
        country: attemptCountry,
        config: engine,
        http,
        ...(browser ? { browser } : {}),
        account: account
          ? {
              id: account.resource.id,
              country: account.resource.country,
              kind: account.resource.value.kind,
              secret: account.resource.value.secret,
            }
          : null,
        signal,
        parse: this.parser.bind(signal),
        log,
        attempt: task.attempts,
      });
      // The adapter gets the signal, but a timeout must end the attempt even if an adapter ignores it.
      const result = await Promise.race([work, abortPromise(signal)]);
      this.metrics.engineLatency.observe(
        { engine: task.taskType, outcome: 'ok' },
        (performance.now() - started) / 1000,
      );
      const response = clientResponse(task.taskType, payload, result, {
        requested: task.country,
        exit: exit.resource.country,
      });
      const evidence = keeps
        ? await this.evidenceOf(result, browser, secrets, isPooledPage(engine, kind), log)
        : undefined;
      return {
        kind: 'completed',
        response,
        ...(result.credits === undefined ? {} : { credits: result.credits }),
        ...(evidence ? { evidence } : {}),
      };
    } catch (e) {
      this.metrics.engineLatency.observe(
        { engine: task.taskType, outcome: 'error' },
        (performance.now() - started) / 1000,
      );
      const cutShort = drain.aborted && !timedOut;
      const classified = cutShort ? interrupted() : classifyAttemptError(e, timedOut);
      if (classified.origin === 'internal') {
        // Our own bug: no verdict on the exit address or account, and no retry (it would fail the same way).
        release = 'unused';
        this.metrics.internalErrors.inc({ engine: task.taskType });
        log.error({ err: classified.error, engine: task.taskType, exit: exit.resource.id }, 'engine internal error');
        // The exception's text stays in the log: it may quote anything the adapter held.
        const failure = serviceFailure(
          'INTERNAL_ERROR',
          `aeq failed in its own code (${classified.error.name}) while running this attempt; the upstream is not ` +
            'at fault, and the error is logged for the operator.',
          { upstreamHost, attempts },
        );
        return {
          kind: 'failed',
          code: 'ENGINE_FAILED',
          error: taskErrorString('ENGINE_FAILED'),
          retryable: false,
          failure,
        };
      }
      const failure = classified.failure;
      const retryAfterMs =
        failure.retryAfterMs === undefined
          ? undefined
          : Math.min(failure.retryAfterMs, this.config.scheduler.retryMaxMs);
      if (coolsDownExit(failure.kind)) {
        release = 'cooldown';
        restAtLeastMs = retryAfterMs ?? 0;
      }
      this.metrics.upstreamFailures.inc({ engine: task.taskType, kind: failure.kind });
      const code = taskCodeFor(failure.kind);
      log.warn(
        { engine: task.taskType, kind: failure.kind, exit: exit.resource.id, upstream: scope, detail: failure.message },
        'engine attempt failed',
      );
      const secrets = [engine.upstream.apiKey, account?.resource.value.secret, ...proxySecrets(exit.resource.value)];
      return {
        kind: 'failed',
        code,
        error: taskErrorString(code, failure.clientMessage),
        failure: cutShort
          ? serviceFailure('WORKER_LOST', 'The attempt was cut short by its worker stopping.', { attempts })
          : upstreamFailure(
              failure.kind,
              timedOut ? `no complete answer within ${engine.timeoutMs} ms` : failure.message,
              {
                upstreamHost,
                attempts,
                secrets: secrets.filter((x): x is string => typeof x === 'string'),
              },
            ),
        retryable: !isPermanent(failure.kind),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    } finally {
      clearTimeout(timer);
      drain.removeEventListener('abort', onDrain);
      // A page an adapter left open (it outran the timeout) must not outlive the attempt.
      browser?.close();
      exit.release(release, restAtLeastMs);
      account?.release(release, restAtLeastMs);
    }
  }

  /**
   * The artefacts of a completed attempt. They are evidence beside the answer, not the answer: a failure to make one
   * is logged and the task completes without it.
   */
  private async evidenceOf(
    result: EngineResult,
    browser: AttemptBrowser | null,
    secrets: readonly string[],
    pooledPage: boolean,
    log: Logger,
  ): Promise<EvidenceItem[] | undefined> {
    try {
      return await collectEvidence(result, browser, secrets, pooledPage);
    } catch (e) {
      log.warn({ err: coerceError(e) }, 'artefacts could not be made; the task completes without them');
      return undefined;
    }
  }

  /** An attempt that could not start, for a reason on aeq's side; `message` is aeq's own sentence. */
  private fail(
    task: ClaimedTask,
    code: TaskErrorCode,
    reason: ServiceFailureCode,
    log: Logger,
    message: string,
    retryable = false,
  ): AttemptOutcome {
    log.warn({ code, detail: message }, 'attempt could not start');
    const failure = serviceFailure(reason, message, { attempts: task.attempts });
    return { kind: 'failed', code, error: taskErrorString(code), retryable, failure };
  }
}

function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fire = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });
}

/** The worker is draining: whatever the abort made the adapter throw, the attempt was cut short, not failed. */
function interrupted(): AttemptFailure {
  return {
    origin: 'upstream',
    failure: new UpstreamFailure('UPSTREAM_ERROR', 'attempt interrupted by the worker draining'),
  };
}

/** An exit address's proxy URL and its password, as they could appear in an error's text. */
function proxySecrets(exit: { proxyUrl?: string }): string[] {
  if (!exit.proxyUrl) return [];
  try {
    const u = new URL(exit.proxyUrl);
    return [exit.proxyUrl, u.password, decodeURIComponent(u.password)].filter((x) => x.length > 0);
  } catch {
    return [exit.proxyUrl];
  }
}

/**
 * The host an attempt talks to, as its failure names it: the web host of a chat engine in its web mode (its
 * `webBaseUrl`, not the API's), else the host of the upstream scope.
 */
function attemptHost(engine: EngineConfig, scope: string): string | null {
  const web = engine.upstream.options.webBaseUrl;
  if (engine.transport === 'browser' && typeof web === 'string') {
    try {
      return new URL(web).host || hostOfScope(scope);
    } catch {
      return hostOfScope(scope);
    }
  }
  return hostOfScope(scope);
}
