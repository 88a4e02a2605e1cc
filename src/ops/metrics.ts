import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one service instance (own registry, so tests can run several). */
export class Metrics {
  readonly registry = new Registry();
  readonly tasksSubmitted = new Counter({
    name: 'aeq_tasks_submitted_total',
    help: 'Tasks accepted',
    labelNames: ['engine'],
    registers: [this.registry],
  });
  readonly attempts = new Counter({
    name: 'aeq_task_attempts_total',
    help: 'Engine attempts started',
    labelNames: ['engine'],
    registers: [this.registry],
  });
  /**
   * A worker's claims by what they brought: `tasks`, `empty` (other workers took the room, or nothing was due) or
   * `failed`. Beside the attempts, the tasks a claim carries: each claim has a fixed cost on the engine's lock.
   */
  readonly claims = new Counter({
    name: 'aeq_claims_total',
    help: 'Claims of due tasks made by this process, by engine and outcome (tasks, empty, failed)',
    labelNames: ['engine', 'outcome'],
    registers: [this.registry],
  });
  readonly tasksFinished = new Counter({
    name: 'aeq_tasks_finished_total',
    help: 'Tasks that reached a terminal state',
    labelNames: ['engine', 'status'],
    registers: [this.registry],
  });
  /** Label cardinality: accounts × engines (accounts are made by operators, docs/operations.md). */
  readonly creditsCharged = new Counter({
    name: 'aeq_credits_charged_total',
    help: 'Credits charged for finished tasks, by account id and engine (counted by the worker that finished them)',
    labelNames: ['account', 'engine'],
    registers: [this.registry],
  });
  readonly failures = new Counter({
    name: 'aeq_task_failures_total',
    help: 'Failed attempts by task-level code',
    labelNames: ['engine', 'code'],
    registers: [this.registry],
  });
  readonly upstreamFailures = new Counter({
    name: 'aeq_upstream_failures_total',
    help: 'Adapter failures by kind (parse errors show as LAYOUT_CHANGED)',
    labelNames: ['engine', 'kind'],
    registers: [this.registry],
  });
  readonly internalErrors = new Counter({
    name: 'aeq_engine_internal_errors_total',
    help: 'Attempts ended by an exception in our own code (a bug, not an upstream failure; never retried)',
    labelNames: ['engine'],
    registers: [this.registry],
  });
  readonly engineLatency = new Histogram({
    name: 'aeq_engine_attempt_seconds',
    help: 'Engine attempt duration',
    labelNames: ['engine', 'outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  readonly taskLatency = new Histogram({
    name: 'aeq_task_seconds',
    help: 'Submit to terminal',
    labelNames: ['engine', 'status'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  readonly webhookOutcomes = new Counter({
    name: 'aeq_webhook_attempts_total',
    help: 'Webhook attempts by outcome',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: 'aeq_queue_depth',
    help: 'Tasks by engine and status',
    labelNames: ['engine', 'status'],
    registers: [this.registry],
  });
  readonly httpLatency = new Histogram({
    name: 'aeq_http_request_seconds',
    help: 'HTTP request duration',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
