import type { Logger } from 'pino';
import type { Authenticator } from '../accounts/authenticator.js';
import type { ServiceConfig } from '../config/engine-config.js';
import type { Settings } from '../config/settings.js';
import type { TaskType } from '../domain/task-types.js';
import type { Metrics } from '../ops/metrics.js';
import type { Pools } from '../pools/pools.js';
import type { RuntimeChanges } from '../pools/runtime-changes.js';
import type { Accounts, ArtifactFiles, Batches, Figures, Monitors, Outbox, TaskQueue, Usage } from '../store/ports.js';
import type { AccountSecrets } from '../webhooks/account-secrets.js';

/** The store's ports the routes use, and its readiness (/ready). */
interface HttpStore {
  readonly kind: 'sqlite' | 'postgres';
  isReady(): Promise<boolean>;
  readonly tasks: TaskQueue;
  readonly figures: Figures;
  readonly outbox: Pick<Outbox, 'log' | 'requestRedelivery'>;
  readonly batches: Batches;
  readonly accounts: Accounts;
  readonly monitors: Monitors;
  readonly usage: Usage;
}

/** What the HTTP layer needs from the rest of the service. */
export interface HttpContext {
  settings: Readonly<Settings>;
  config: ServiceConfig;
  store: HttpStore;
  pools: Pools;
  /** Operator changes (internal routes), shared with every process through the store. */
  runtime: RuntimeChanges;
  metrics: Metrics;
  log: Logger;
  apiKey: string;
  /** Who a bearer token belongs to (the configured key, or an account's key). */
  auth: Authenticator;
  /** Each account's webhook signing secrets (GET /v1/webhooks/secret). */
  webhookSecrets: AccountSecrets;
  /** The artefacts' files (GET /v1/async/task/{id}/artifacts/{name}). */
  artifactFiles: ArtifactFiles;
  now: () => number;
  /** Wakes an in-process worker after an insert (no-op in the `api` role). */
  notify: (taskType: TaskType) => void;
}
