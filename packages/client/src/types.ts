import type { components, paths } from './openapi.js';

/** Request and answer types of the service, taken from its OpenAPI document (openapi.ts, generated). */
type JsonBody<T> = T extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type JsonAnswer<T, S extends number> = T extends {
  responses: { [K in S]: { content: { 'application/json': infer A } } };
}
  ? A
  : never;

export type Envelope = JsonBody<paths['/v1/async/task']['post']>;
export type Accepted = JsonAnswer<paths['/v1/async/task']['post'], 202>;
export type BatchAnswer = JsonAnswer<paths['/v1/async/task/batch']['post'], 200>;
export type BatchItemResult = NonNullable<BatchAnswer['results']>[number];
export type Polling = JsonAnswer<paths['/v1/async/task/{id}']['get'], 200>;
export type TaskStatus = NonNullable<NonNullable<Polling['task']>['status']>;
/** Why a FAILED task's last attempt failed, beside the fixed `error` string (polling, listings, webhooks). */
export type TaskFailure = NonNullable<Polling['failure']>;
export type BatchStatus = JsonAnswer<paths['/v1/async/batch/{id}']['get'], 200>;
export type DeliveryLog = JsonAnswer<paths['/v1/async/task/{id}/deliveries']['get'], 200>;
/** The artefacts a task kept (include.artifacts), each with the URL of its bytes. */
export type ArtifactList = JsonAnswer<paths['/v1/async/task/{id}/artifacts']['get'], 200>;
export type Artifact = NonNullable<ArtifactList['artifacts']>[number];
export type Usage = JsonAnswer<paths['/v1/usage']['get'], 200>;
/** The account's webhook signing secret, and the one a rotation replaced while it still signs. */
export type WebhookSecret = JsonAnswer<paths['/v1/webhooks/secret']['get'], 200>;
/** One page of the account's tasks (GET /v1/async/tasks) and the cursor of the next. */
export type ListedTasks = JsonAnswer<paths['/v1/async/tasks']['get'], 200>;
/** A task of a listing: `task`, `credits`, and with `includeResult` its `response` or `error`. */
export type ListedTask = NonNullable<ListedTasks['tasks']>[number];
export type SourceInfluenceRequest = JsonBody<paths['/v1/source-influence']['post']>;
export type PromptResearchRequest = JsonBody<paths['/v1/prompt-research']['post']>;
export type ErrorEnvelope = JsonAnswer<paths['/v1/async/task']['post'], 400>;
/** One page of the account's batches (GET /v1/async/batches). */
export type BatchList = JsonAnswer<paths['/v1/async/batches']['get'], 200>;
export type MonitorCreate = JsonBody<paths['/v1/monitors']['post']>;
export type MonitorPatch = JsonBody<paths['/v1/monitors/{id}']['patch']>;
/** A monitor's definition, schedule and next run, as every monitor route answers it. */
export type MonitorAnswer = JsonAnswer<paths['/v1/monitors/{id}']['get'], 200>;
export type Monitor = NonNullable<MonitorAnswer['monitor']>;
export type MonitorList = JsonAnswer<paths['/v1/monitors']['get'], 200>;
export type MonitorRuns = JsonAnswer<paths['/v1/monitors/{id}/runs']['get'], 200>;
export type MonitorRun = NonNullable<MonitorRuns['runs']>[number];
/** A run started by hand (POST /v1/monitors/{id}/runs). */
export type MonitorRunStarted = JsonAnswer<paths['/v1/monitors/{id}/runs']['post'], 202>;
export type MonitorMetrics = JsonAnswer<paths['/v1/monitors/{id}/metrics']['get'], 200>;
/** One point of a monitor's series: one run, engine and country. */
export type MonitorMetricsPoint = NonNullable<MonitorMetrics['series']>[number];
/** A monitor's signals: changes of its figures that held against their baseline (GET /v1/monitors/{id}/signals). */
export type MonitorSignals = JsonAnswer<paths['/v1/monitors/{id}/signals']['get'], 200>;
export type MonitorSignal = NonNullable<MonitorSignals['signals']>[number];
/** Names and domains a monitor's answers name or cite that it does not track (GET /v1/monitors/{id}/discovered). */
export type MonitorDiscovered = JsonAnswer<paths['/v1/monitors/{id}/discovered']['get'], 200>;
/** What a task asked (GET /v1/async/task/{id}/request). */
export type TaskRequest = JsonAnswer<paths['/v1/async/task/{id}/request']['get'], 200>;
/**
 * The `response` of a completed SOURCE_INFLUENCE task (docs/analysis.md#s2-12), as the service's OpenAPI document
 * publishes it; polling answers it for that engine (`Polling['response']` is the union of every engine's answer).
 */
export type SourceInfluenceResult = components['schemas']['SourceInfluenceResult'];
/** The extended analysis of a source-influence result, present when the request asked for `analysis.version = 1`. */
export type ExtendedAnalysis = NonNullable<SourceInfluenceResult['analysis']>;
/** The `response` of a completed PROMPT_RESEARCH task (docs/analysis.md#s3-13). */
export type PromptResearchResult = components['schemas']['PromptResearchResult'];
