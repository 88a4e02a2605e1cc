import type { Logger } from 'pino';
import type { AccountKind } from '../config/account-kind.js';
import type { EngineConfig } from '../config/engine-config.js';
import type { TaskPayload } from '../domain/task.js';
import type { TaskType } from '../domain/task-types.js';
import type { BrowserTransport } from '../transport/browser/browser-transport.js';
import type { Parse } from './parse-pool/parsers.js';
import type { HttpTransport } from '../transport/http-transport.js';
import type { EngineResult } from './engine-result.js';

// Parsers import these from engine-result.ts (not from here, which would close a cycle through the parse table).
export type { EngineResult, Source } from './engine-result.js';

/** The account taken from the account pool for this attempt, for engines drawing on one. */
export interface AttemptAccount {
  id: string;
  country: string;
  /** What `secret` is: a provider API key or an app session (config/account-kind.ts). */
  kind: AccountKind;
  secret: string;
}

/** Everything an adapter may use for one attempt. */
export interface AttemptContext {
  taskId: string;
  /**
   * The id of the account that owns the task (its submitting key's), not a pool account: state kept across tasks,
   * such as the analysis caches, is kept per tenant so that one tenant's result never shows another's use.
   */
  tenant: string;
  taskType: TaskType;
  payload: TaskPayload;
  /** Upper-case ISO country the attempt is served for. */
  country: string;
  config: EngineConfig;
  /** HTTP through the exit address taken for this attempt. */
  http: HttpTransport;
  /**
   * A browser through the same exit address, for engines configured with `transport: "browser"` (worker processes
   * only).
   */
  browser?: BrowserTransport;
  account: AttemptAccount | null;
  /** Aborted when the attempt times out or the worker drains; pass it on to every call. */
  signal: AbortSignal;
  /**
   * Runs a registered parse (src/engines/parse-pool/parsers.ts) off the event loop, under `signal`:
   * adapters fetch here and hand DOM parsing, Readability, Markdown conversion and large JSON to it.
   */
  parse: Parse;
  log: Logger;
  /** 1-based attempt number. */
  attempt: number;
}

/**
 * An engine adapter builds the upstream request, calls it through the attempt's transport, and parses
 * the answer. Failures are thrown as UpstreamFailure with a kind (never an empty success).
 */
export interface EngineAdapter {
  readonly taskType: TaskType;
  /**
   * Whether the engine can draw on an account pool; the runner leases one of the kind the task's surface uses, when it
   * uses one (config/account-kind.ts `leaseKind`).
   */
  readonly needsAccount: boolean;
  run(ctx: AttemptContext): Promise<EngineResult>;
}
