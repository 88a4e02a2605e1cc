import fs from 'node:fs';
import { ALL_TASK_TYPES, ENGINE_CATALOG } from '../domain/engine-catalog.js';
import type { TaskType } from '../domain/task-types.js';
import type { Settings } from './settings.js';
import { strictValidator } from './json-schemas.js';
import { ACCOUNT_KINDS, type AccountKind, inferredKind, kindMismatch } from './account-kind.js';

/**
 * How an engine reaches its upstream: anonymous via exit addresses, an account pool, an official API, or not
 * configured.
 */
type EngineMode = 'anon' | 'account' | 'api' | 'off';

/** How an engine loads its pages: plain HTTP, or a real browser for upstreams that render with JavaScript. */
type EngineTransport = 'http' | 'browser';

export interface UpstreamConfig {
  baseUrl: string;
  headers: Record<string, string>;
  /** Engine-specific knobs (model names, region parameters, secondary hosts). */
  options: Record<string, string | number | boolean>;
  /** Provider API key for `api` mode. Never logged. */
  apiKey?: string;
}

export interface EngineConfig {
  mode: EngineMode;
  concurrency: number;
  timeoutMs: number;
  maxAttempts: number;
  credits: number;
  /** Countries this engine can never serve (REGION_UNSUPPORTED). */
  neverServe: string[];
  upstream: UpstreamConfig;
  paused: boolean;
  /** Absent means `http` (the loader always sets it). */
  transport?: EngineTransport;
  /**
   * Set at start-up when the engine cannot serve at all, with the reason: switched off, `api` mode without a key, or
   * its transport is `browser` and Chromium is missing. Submissions to it are refused (ENGINE_UNAVAILABLE) and
   * /capacity says why; a task queued before fails at once instead of being retried.
   */
  unavailable?: string;
  /**
   * Set at start-up for an engine with an app surface whose transport is `http` when Chromium is missing: a task asking
   * `surface: "app"` is refused (ENGINE_UNAVAILABLE, NO_BROWSER), the default surface still serves.
   */
  appUnavailable?: string;
  /** The kind of `unavailable`, for clients to branch on (ENGINE_UNAVAILABLE's `details.reason`). */
  unavailableCause?: EngineUnavailableCause;
  /**
   * True when the engine's upstreams are the sandbox's simulators (AEQ_SANDBOX=1): results computed from them say
   * `simulated: true` and name the simulator, never a vendor's model or data source. Absent means false.
   */
  simulated?: boolean;
}

type EngineUnavailableCause = 'SWITCHED_OFF' | 'NO_CREDENTIALS' | 'NO_BROWSER';

export interface AccountConfig {
  id: string;
  engine: TaskType;
  country: string;
  /**
   * What the secret is: a provider API key (`api`) or an app session (`app`); an attempt leases only the kind its
   * surface uses (account-kind.ts). Inferred at load time when the configuration leaves it out.
   */
  kind: AccountKind;
  /** API key or session token; never logged, never returned. */
  secret: string;
}

export interface ExitAddressConfig {
  id: string;
  country: string;
  /** http://, https:// or socks5:// proxy URL; absent = the host's own connection. */
  proxyUrl?: string;
  maxConcurrent: number;
}

interface SchedulerConfig {
  leaseMs: number;
  heartbeatMs: number;
  agingMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  poolWaitMs: number;
  pollMs: number;
  /** After a claim of under a quarter of the worker's share of an engine, the wait before the next (worker.ts). */
  claimCoalesceMs: number;
  exitCooldownMs: number;
  /** How often a worker looks for dead workers and hands back what they held (store/workers/liveness.ts). */
  livenessMs: number;
  /**
   * 1: a worker process claims at most its share of an engine's concurrency, the concurrency divided by the worker
   * processes registered (queue/worker.ts); 0: each may claim all of it.
   */
  shareConcurrency: number;
}

export interface ServiceConfig {
  scheduler: SchedulerConfig;
  engines: Record<TaskType, EngineConfig>;
  accounts: AccountConfig[];
  exitAddresses: ExitAddressConfig[];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const DEFAULT_CONFIG_URL = new URL('../../config/default.json', import.meta.url);

const country = { type: 'string', pattern: '^[A-Za-z]{2}$' } as const;
const engineSchema = {
  type: 'object',
  properties: {
    mode: { enum: ['anon', 'account', 'api', 'off'] },
    concurrency: { type: 'integer', minimum: 0, maximum: 10000 },
    timeoutMs: { type: 'integer', minimum: 1 },
    maxAttempts: { type: 'integer', minimum: 1, maximum: 20 },
    credits: { type: 'integer', minimum: 1, maximum: 3 },
    neverServe: { type: 'array', items: country },
    paused: { type: 'boolean' },
    transport: { enum: ['http', 'browser'] },
    upstream: {
      type: 'object',
      properties: {
        baseUrl: { type: 'string' },
        apiKey: { type: 'string' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        options: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

const fileSchema = {
  type: 'object',
  properties: {
    $comment: { type: 'string' },
    scheduler: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
    engines: { type: 'object', propertyNames: { enum: [...ALL_TASK_TYPES] }, additionalProperties: engineSchema },
    accounts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'engine', 'country', 'secret'],
        properties: {
          id: { type: 'string', minLength: 1 },
          engine: { enum: [...ALL_TASK_TYPES] },
          country,
          kind: { enum: [...ACCOUNT_KINDS] },
          secret: { type: 'string' },
        },
        additionalProperties: false,
      },
    },
    exitAddresses: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'country'],
        properties: {
          id: { type: 'string', minLength: 1 },
          country,
          proxyUrl: { type: 'string', pattern: '^(https?|socks5h?)://' },
          maxConcurrent: { type: 'integer', minimum: 1 },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

const validateFile = strictValidator(fileSchema);

interface RawEngine {
  mode?: EngineMode;
  concurrency?: number;
  timeoutMs?: number;
  maxAttempts?: number;
  credits?: number;
  neverServe?: string[];
  paused?: boolean;
  transport?: EngineTransport;
  upstream?: Partial<UpstreamConfig>;
}
interface RawFile {
  scheduler?: Partial<SchedulerConfig>;
  engines?: Partial<Record<TaskType, RawEngine>>;
  accounts?: Array<Omit<AccountConfig, 'kind'> & { kind?: AccountKind }>;
  exitAddresses?: Array<Omit<ExitAddressConfig, 'maxConcurrent'> & { maxConcurrent?: number }>;
}

function readFile(pathOrUrl: string | URL, label: string): RawFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(pathOrUrl, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${label}: cannot read JSON (${(e as Error).message})`);
  }
  if (!validateFile(parsed)) {
    const why = (validateFile.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new ConfigError(`${label}: ${why}`);
  }
  return parsed as RawFile;
}

/**
 * Sandbox pools (docs/contract.md#sandbox-pools): CHATBOT_A accounts US x4 and KR x2; exit addresses in US, KR, JP,
 * GB, DE (three each).
 */
function sandboxPools(): Pick<ServiceConfig, 'accounts' | 'exitAddresses'> {
  const accounts: AccountConfig[] = [];
  for (const [c, n] of [
    ['US', 4],
    ['KR', 2],
  ] as const) {
    for (let i = 1; i <= n; i++)
      accounts.push({
        id: `sandbox-chatbot-a-${c.toLowerCase()}-${i}`,
        engine: 'CHATBOT_A',
        country: c,
        kind: 'api',
        secret: `sk-sandbox-${c.toLowerCase()}-${i}`,
      });
    // As many ChatGPT app sessions for the app surface: a pool keeps API keys and sessions apart.
    for (let i = 1; i <= n; i++)
      accounts.push({
        id: `sandbox-chatbot-a-app-${c.toLowerCase()}-${i}`,
        engine: 'CHATBOT_A',
        country: c,
        kind: 'app',
        secret: `sandbox-session-${c.toLowerCase()}-${i}`,
      });
  }
  // Three exits per country, so a captcha on one can be retried on another (docs/contract.md#sandbox-pools).
  const exitAddresses = ['US', 'KR', 'JP', 'GB', 'DE'].flatMap((c) =>
    [1, 2, 3].map((i) => ({ id: `sandbox-exit-${c.toLowerCase()}-${i}`, country: c, maxConcurrent: 64 })),
  );
  return { accounts, exitAddresses };
}

/**
 * A configured account with its kind: the one given, else the one its engine's configuration implies
 * (account-kind.ts `inferredKind`). A kind the engine cannot use, or an API key given as an app session, stops the
 * start: the secret would otherwise go where it does not belong.
 */
function resolvedAccount(
  a: Omit<AccountConfig, 'kind'> & { kind?: AccountKind | undefined },
  index: number,
  engines: Record<TaskType, EngineConfig>,
): AccountConfig {
  const kind = a.kind ?? inferredKind(a.engine, engines[a.engine]);
  const wrong = kindMismatch(a.engine, kind, a.secret);
  if (wrong) {
    const how = a.kind ? 'given' : `inferred from engines.${a.engine}'s transport; set "kind" to say which`;
    throw new ConfigError(`accounts[${index}] (${JSON.stringify(a.id)}): ${wrong} (kind ${how})`);
  }
  return { ...a, kind, country: a.country.toUpperCase() };
}

/** Sandbox provider keys for `api` engines, so they are configured like a real deployment would be. */
const SANDBOX_API_KEYS: Partial<Record<TaskType, string>> = {
  ANSWER_ENGINE_A: 'pplx-sandbox-key',
  ASSISTANT_A: 'gemini-sandbox-key',
  // The analysis model (OpenAI-compatible) of source influence.
  SOURCE_INFLUENCE: 'sk-sandbox-analysis-model',
  // Naver Search Ad credentials as `customerId:accessLicense:secretKey` (docs/analysis.md).
  PROMPT_RESEARCH: '1234567:sandbox-access-license:sandbox-searchad-secret',
};

export function loadServiceConfig(settings: Settings): ServiceConfig {
  const defaults = readFile(DEFAULT_CONFIG_URL, 'config/default.json');
  const user = settings.configPath ? readFile(settings.configPath, settings.configPath) : {};
  const scheduler = { ...defaults.scheduler, ...user.scheduler } as SchedulerConfig;
  const engines = {} as Record<TaskType, EngineConfig>;
  for (const t of ALL_TASK_TYPES) {
    const d = defaults.engines?.[t] ?? {};
    const u = user.engines?.[t] ?? {};
    const row = ENGINE_CATALOG[t];
    const upstream: UpstreamConfig = {
      baseUrl: u.upstream?.baseUrl ?? d.upstream?.baseUrl ?? '',
      headers: { ...d.upstream?.headers, ...u.upstream?.headers },
      options: { ...d.upstream?.options, ...u.upstream?.options },
    };
    const apiKey = u.upstream?.apiKey ?? d.upstream?.apiKey ?? (settings.sandbox ? SANDBOX_API_KEYS[t] : undefined);
    if (apiKey) upstream.apiKey = apiKey;
    let mode: EngineMode = u.mode ?? d.mode ?? 'anon';
    let off: Pick<EngineConfig, 'unavailable' | 'unavailableCause'> = {};
    if (mode === 'api' && !upstream.apiKey) {
      mode = 'off';
      off = {
        unavailable: `no provider API key is configured (engines.${t}.upstream.apiKey in the AEQ_CONFIG file)`,
        unavailableCause: 'NO_CREDENTIALS',
      };
    } else if (mode === 'off')
      off = {
        unavailable: `switched off in the configuration (engines.${t}.mode is "off")`,
        unavailableCause: 'SWITCHED_OFF',
      };
    // The simulator's pages are complete without JavaScript (unless `sandbox:js`), so the sandbox
    // keeps plain HTTP unless the config file asks for the browser; real Google needs the browser.
    const transport: EngineTransport = u.transport ?? (settings.sandbox ? 'http' : d.transport) ?? 'http';
    // Engines with a browser path: the search surfaces, and the web modes of the chat engines (their
    // UI instead of the provider API), as the catalog says; the others accept only `http`.
    if (transport === 'browser' && !row.browser) {
      const allowed = ALL_TASK_TYPES.filter((x) => ENGINE_CATALOG[x].browser);
      throw new ConfigError(`engines.${t}.transport: "browser" is available only for ${allowed.join(', ')}`);
    }
    engines[t] = {
      mode,
      concurrency: u.concurrency ?? d.concurrency ?? 2,
      timeoutMs: settings.engineTimeoutMs ?? u.timeoutMs ?? d.timeoutMs ?? 60_000,
      maxAttempts: settings.engineMaxAttempts ?? u.maxAttempts ?? d.maxAttempts ?? 3,
      credits: u.credits ?? row.credits,
      neverServe: (u.neverServe ?? d.neverServe ?? []).map((c) => c.toUpperCase()),
      paused: u.paused ?? d.paused ?? false,
      transport,
      upstream,
      simulated: settings.sandbox,
      ...off,
    };
  }
  const pools = settings.sandbox ? sandboxPools() : { accounts: [], exitAddresses: [] };
  const accounts = (user.accounts ?? pools.accounts).map((a, i) => resolvedAccount(a, i, engines));
  let exitAddresses: ExitAddressConfig[] = (user.exitAddresses ?? pools.exitAddresses).map((x) => ({
    ...x,
    country: x.country.toUpperCase(),
    maxConcurrent: x.maxConcurrent ?? 8,
  }));
  // docs/contract.md#direct-connection: with no exit address configured the host's own connection is one.
  if (exitAddresses.length === 0)
    exitAddresses = [{ id: 'direct', country: settings.directCountry, maxConcurrent: 64 }];
  const ids = new Set<string>();
  for (const r of [...accounts, ...exitAddresses]) {
    if (ids.has(r.id)) throw new ConfigError(`duplicate pool resource id ${JSON.stringify(r.id)}`);
    ids.add(r.id);
  }
  return { scheduler, engines, accounts, exitAddresses };
}
