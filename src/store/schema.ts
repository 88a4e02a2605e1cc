import type { Generated } from 'kysely';
/** Kysely table types. Times are epoch milliseconds; JSON columns hold serialized text. */
export interface TasksTable {
  id: string;
  task_type: string;
  status: string;
  priority: number;
  /** created_at - priority * agingMs: ascending order = higher priority first, older first (ageing). */
  sort_key: number;
  payload: string;
  idempotency_key: string | null;
  webhook_url: string | null;
  country: string | null;
  created_at: number;
  updated_at: number;
  available_at: number;
  attempts: number;
  max_attempts: number;
  lease_token: string | null;
  lease_expires_at: number | null;
  worker_id: string | null;
  result: string | null;
  error: string | null;
  /** Why the last attempt failed: a TaskFailure as JSON (migrations/024-task-failure.ts). */
  failure: string | null;
  credits_to_charge: number;
  credits_charged: number | null;
  finished_at: number | null;
  /** The batch the task was submitted in and its item index there (null when submitted alone). */
  batch_id: string | null;
  batch_index: number | null;
  /** The account of the key that made it (migrations/013-account-isolation.ts). */
  account_id: string;
  /** The artefacts it kept, a StoredArtifact[] as JSON (migrations/028-task-artifacts.ts); null: none. */
  artifacts: string | null;
}

/** A batch (migrations/011-batches.ts): `size` items submitted, `total` of them accepted as tasks. */
export interface BatchesTable {
  id: string;
  size: number;
  total: number;
  /** The least and the greatest id of its tasks (null without any): its tasks are found in this range. */
  first_task_id: string | null;
  last_task_id: string | null;
  webhook_url: string | null;
  created_at: number;
  account_id: string;
  /** When every task of the batch was first seen terminal (its batch.completed delivery is queued then). */
  completed_at: number | null;
}

export interface WebhookDeliveriesTable {
  task_id: string;
  url: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  lease_token: string | null;
  lease_expires_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  /** Deliveries sent again on request (0 for the first); the webhook-id of the current one. */
  redeliveries: Generated<number>;
  /** `attempts` when the current delivery began: its own attempts are those above. */
  attempts_base: Generated<number>;
  /** The account of its task or batch. */
  account_id: string;
  /** The worker process whose sender claimed it (store/workers/liveness.ts); null when not claimed. */
  holder: Generated<string | null>;
}

/** A registered worker process (store/workers/liveness.ts). */
interface WorkersTable {
  id: string;
  /** PostgreSQL: the key of the session advisory lock the worker holds while it lives. */
  lock_key: number | null;
  started_at: number;
}

/** One row per attempt made: (task_id, attempt) is unique, so no attempt number is made twice. */
export interface WebhookAttemptsTable {
  task_id: string;
  attempt: number;
  started_at: number;
  finished_at: number | null;
  outcome: string | null;
  http_status: number | null;
  /** Why a failed attempt failed (`HTTP 500` is in http_status; this is `ECONNREFUSED: …`, `timeout`, …). */
  error: string | null;
  /** When the next attempt was scheduled by this one (a retry), else null. */
  next_attempt_at: number | null;
  /** The delivery (0 first, then each redelivery) the attempt belonged to. */
  delivery: Generated<number>;
}

/** An account's webhook signing secrets (migrations/023-webhook-secrets.ts); sealed (`v1.…`) or `whsec_…`. */
interface WebhookSecretsTable {
  account_id: string;
  secret: string;
  created_at: number;
  /** The secret before the last rotation, signing too until `previous_expires_at`. */
  previous_secret: string | null;
  previous_expires_at: number | null;
}

interface AccountsTable {
  id: string;
  name: string;
  created_at: number;
}

/** An API key: its SHA-256 only, and a prefix for display (src/accounts/api-keys.ts). */
interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string | null;
  prefix: string;
  hash: string;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
}

/** Usage of tasks past retention (migrations/015-usage-daily.ts). */
interface UsageDailyTable {
  account_id: string;
  /** Days since 1970-01-01, UTC. */
  day: number;
  task_type: string;
  tasks: number;
  credits: number;
}

interface RuntimeChangesTable {
  key: string;
  state: string;
  updated_at: number;
}

interface MetaTable {
  key: string;
  value: string;
}

/** A visibility monitor (migrations/017-monitors.ts): its definition as JSON, status and next scheduled time. */
export interface MonitorsTable {
  id: string;
  account_id: string;
  name: string;
  spec: string;
  status: string;
  next_run_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A monitor's run for one scheduled time: its batch of tasks, then its saved results and figures. */
export interface MonitorRunsTable {
  id: string;
  monitor_id: string;
  account_id: string;
  slot_at: number;
  status: string;
  batch_id: string | null;
  spec: string;
  tasks: number;
  results: string | null;
  metrics: string | null;
  /** The saved results by status, once the run has completed (migrations/018-monitor-run-counts.ts). */
  completed_tasks: number | null;
  failed_tasks: number | null;
  created_at: number;
  completed_at: number | null;
  /** `schedule` or `manual` (migrations/025-monitor-run-trigger.ts). */
  run_trigger: string;
}

export interface Database {
  tasks: TasksTable;
  monitors: MonitorsTable;
  monitor_runs: MonitorRunsTable;
  batches: BatchesTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  usage_daily: UsageDailyTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_secrets: WebhookSecretsTable;
  aeq_meta: MetaTable;
  runtime_changes: RuntimeChangesTable;
  workers: WorkersTable;
}
